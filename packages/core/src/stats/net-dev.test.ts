import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import { readNetDev } from './net-dev.ts';

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
    const ifaces = await readNetDev(fx.fs, 42);
    assert.deepEqual(ifaces?.map((i) => i.name), ['eth0', 'nodelet-e9']);
    const sum = (k: 'rxBytes' | 'txBytes') => (ifaces ?? []).reduce((n, i) => n + i[k], 0);
    assert.deepEqual([sum('rxBytes'), sum('txBytes')], [2714457078 + 9140, 6044312 + 744]);
    assert.equal(await readNetDev(fx.fs, 43), undefined);
  } finally {
    rmSync(fx.root, { recursive: true, force: true });
  }
});
