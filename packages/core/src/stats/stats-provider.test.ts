import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectCgroupLayout } from '../cm/mountinfo.ts';
import { createNodeHostFs } from '../cm/node-host-fs.ts';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import { renderCadvisorMetrics } from '../metrics/cadvisor-renderer.ts';
import { FakeClock, realClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { createNodeDiskUsage } from './disk-usage.ts';
import { NODE_KEY, StatsProvider } from './stats-provider.ts';
import type { SummaryProvider } from './summary-builder.ts';

const POD = '/kubepods/burstable/podu1';
const CTR = `${POD}/cid1`;
const NET = 'Inter-| x\n face | y\n  eth0: 700 7 0 0 0 0 0 0 900 9 0 0 0 0 0 0\n';

function provider(): SummaryProvider {
  return {
    nodeName: () => 'n',
    nodeStartTime: () => 0,
    nodeFsPath: () => '/',
    imageFsPath: () => '/',
    pods: () => [{ ref: { name: 'p', namespace: 'd', uid: 'u1' }, startTime: 0, cgroup: POD, containers: [{ name: 'app', cgroup: CTR, startTime: 0 }] }],
  };
}

test('fixture host: tracked containers, pod network namespace, watch stream, summary and cadvisor series', async () => {
  const f = makeFixture('v1');
  try {
    f.write('/proc/meminfo', 'MemTotal: 1000 kB\n');
    f.write('/proc/self/net/dev', NET);
    f.write('/proc/4242/net/dev', NET.replace('700', '1700'));
    for (const [cg, usage] of [['', 9e9], [POD, 3e9], [CTR, 2e9]] as const) {
      f.write(`/sys/fs/cgroup/cpuacct${cg}/cpuacct.usage`, String(usage));
      f.write(`/sys/fs/cgroup/memory${cg}/memory.usage_in_bytes`, '409600');
    }
    f.write(`/sys/fs/cgroup/pids${POD}/cgroup.procs`, '4242\n');
    const l = await detectCgroupLayout(f.fs);
    assert.ok(l.ok);
    const clock = new FakeClock();
    const containerFs = (t: { labels?: { name?: string } }) => (t.labels?.name === 'cid1' ? [{ device: '/dev/vdb', usageBytes: 12 << 20, limitBytes: 1 << 30, inodesFree: 5, inodes: 9 }] : undefined);
    const sp = new StatsProvider({ fs: f.fs, clock, logger: nullLogger, layout: l.layout, du: createNodeDiskUsage(f.root), summary: provider(), containerFs }, { allowDynamic: false });
    await sp.start();
    sp.syncTracked([
      { key: POD, cgroup: POD, network: true, labels: { pod: 'p', namespace: 'd' } },
      { key: CTR, cgroup: CTR, labels: { pod: 'p', namespace: 'd', container: 'app', name: 'cid1' }, spec: { cpuShares: 102 } },
      { key: '/gone', cgroup: '/gone' },
    ]);
    sp.syncTracked([
      { key: POD, cgroup: POD, network: true, labels: { pod: 'p', namespace: 'd' } },
      { key: CTR, cgroup: CTR, labels: { pod: 'p', namespace: 'd', container: 'app', name: 'cid1' }, spec: { cpuShares: 102 } },
    ]);
    assert.deepEqual(sp.housekeeper.keys().sort(), [NODE_KEY, POD, CTR].sort());
    const seen: string[] = [];
    const unwatch = sp.watch(CTR, (k) => seen.push(k));
    await clock.step(0);
    await sp.housekeeper.idle();
    assert.equal(sp.machineInfo()?.memoryCapacityBytes, 1024000);
    assert.equal(sp.housekeeper.latest(POD)?.network?.[0]?.rxBytes, 1700);
    assert.equal(sp.housekeeper.latest(NODE_KEY)?.network?.[0]?.rxBytes, 700);
    await clock.step(1000);
    await sp.housekeeper.idle();
    assert.deepEqual(seen, [CTR, CTR]);
    unwatch();
    const s = await sp.summary();
    assert.equal(s.pods[0]?.network?.rxBytes, 1700);
    assert.equal(s.pods[0]?.containers[0]?.cpu?.usageCoreNanoSeconds, 2e9);
    assert.equal(s.node.memory?.availableBytes, 1024000 - 409600);
    const text = renderCadvisorMetrics(sp.cadvisorSource());
    assert.match(text, /container_spec_cpu_shares\{id="\/kubepods\/burstable\/podu1\/cid1",name="cid1",image="",pod="p",namespace="d",container="app"\} 102/);
    assert.match(text, /container_network_receive_bytes_total\{id="\/kubepods\/burstable\/podu1",.*interface="eth0"\} 1700/);
    assert.match(text, /container_fs_usage_bytes\{id="\/kubepods\/burstable\/podu1\/cid1",.*container="app",device="\/dev\/vdb"\} 12582912/);
    assert.equal(text.match(/^container_fs_usage_bytes\{/gm)?.length, 1, 'only the container with a writable layer');
    sp.stop();
    assert.equal(clock.pending(), 0);
  } finally {
    f.cleanup();
  }
});

test('this host: the node cgroup samples cpu and memory, summary has node fs', async () => {
  const fs = createNodeHostFs();
  const l = await detectCgroupLayout(fs);
  assert.ok(l.ok);
  const sp = new StatsProvider({ fs, clock: realClock, logger: nullLogger, layout: l.layout, du: createNodeDiskUsage(), summary: { ...provider(), pods: () => [] } });
  await sp.start();
  try {
    const s = await sp.housekeeper.sampleNow(NODE_KEY);
    assert.ok((s?.cpu?.usageNanoseconds ?? 0) > 0, 'root cgroup cpu usage');
    assert.ok((s?.memory?.usageBytes ?? 0) > 0, 'root cgroup memory usage');
    const perCpu = s?.cpu?.perCpuNanoseconds ?? [];
    assert.equal(perCpu.length, sp.machineInfo()?.numCores, 'node usage per core (root cpuacct.usage_percpu or /proc/stat)');
    assert.ok(perCpu.every((n) => n > 0));
    const sum = await sp.summary();
    assert.ok((sum.node.fs?.capacityBytes ?? 0) > 0);
    assert.ok((sum.node.rlimit?.maxpid ?? 0) > 0);
  } finally {
    sp.stop();
  }
});
