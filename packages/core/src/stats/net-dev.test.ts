import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import { readNetDev } from './net-dev.ts';
import { StatFiles } from './stat-files.ts';

// A node's /proc/<pid>/net/dev with a pod bridge and the host ends of two pods' veth pairs (this format from a real
// host). Pod-to-pod traffic is received on one veth and sent on the other, so counting the veths makes the node's
// rx and tx mirror each other.
const NODE_NET_DEV = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo: 8276414473 2197736    0    0    0     0          0         0 8276414473 2197736    0    0    0     0       0          0
  eth0: 2714457078   89258    0    0    0     0          0         0  6044312   56371    0    0    0     0       0          0
nodelet-e9:    9140     130    0    0    0     0          0       130      744       8    0    0    0     0       0          0
veth1f8def0c: 50000000   40000    0    0    0     0          0         0      542       7    0    0    0     0       0          0
vethc28ab2b8:      542       7    0    0    0     0          0         0 50000000   40000    0    0    0     0       0          0
docker0:     100       1    0    0    0     0          0         0      200       2    0    0    0     0       0          0
nerdctl0:    100       1    0    0    0     0          0         0      200       2    0    0    0     0       0          0
`;

test('readNetDev leaves out the devices cAdvisor ignores (lo, veth*, docker*, nerdctl*)', async () => {
  const fx = makeFixture('v2');
  try {
    fx.write('/proc/42/net/dev', NODE_NET_DEV);
    const files = new StatFiles(fx.fs);
    const ifaces = await files.run((f) => readNetDev(f, 42));
    assert.deepEqual(ifaces?.map((i) => i.name), ['eth0', 'nodelet-e9']);
    const sum = (k: 'rxBytes' | 'txBytes') => (ifaces ?? []).reduce((n, i) => n + i[k], 0);
    assert.deepEqual([sum('rxBytes'), sum('txBytes')], [2714457078 + 9140, 6044312 + 744]);
    assert.equal(await files.run((f) => readNetDev(f, 43)), undefined);
    assert.deepEqual(await new StatFiles({ ...fx.fs, readPseudoInto: undefined }).run((f) => readNetDev(f, 42)), ifaces, 'read as text: the same');
  } finally {
    rmSync(fx.root, { recursive: true, force: true });
  }
});

test('a net/dev longer than the reused buffer (64 KiB) is read whole', async () => {
  const fx = makeFixture('v2');
  try {
    const line = (i: number) => `eth${i}: ${i} 1 0 0 0 0 0 0 ${2 * i} 2 0 0 0 0 0 0\n`;
    const lines = Array.from({ length: 3000 }, (_, i) => line(i));
    fx.write('/proc/7/net/dev', NODE_NET_DEV + lines.join(''));
    const ifaces = await new StatFiles(fx.fs).run((f) => readNetDev(f, 7));
    assert.equal(ifaces?.length, 3000 + 2);
    assert.deepEqual(ifaces?.at(-1), { name: 'eth2999', rxBytes: 2999, rxPackets: 1, rxErrors: 0, rxDropped: 0, txBytes: 5998, txPackets: 2, txErrors: 0, txDropped: 0 });
  } finally {
    rmSync(fx.root, { recursive: true, force: true });
  }
});
