import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import { FakeClock } from '../util/clock.ts';
import { SummaryBuilder, type SampleSource, type SummaryProvider } from './summary-builder.ts';
import type { ContainerSample, CpuSample, MemorySample } from './types.ts';

const cpu = (ns: number): CpuSample => ({ usageNanoseconds: ns, userNanoseconds: 0, systemNanoseconds: 0, periods: 0, throttledPeriods: 0, throttledNanoseconds: 0 });
const mem = (ws: number, limit = -1): MemorySample => ({
  usageBytes: ws + 100, workingSetBytes: ws, rssBytes: ws / 2, cacheBytes: 100, mappedFileBytes: 0, swapBytes: 0, maxUsageBytes: 0,
  failcnt: 0, oomEvents: 0, oomKills: 0, pageFaults: 9, majorPageFaults: 1, limitBytes: limit,
});
const T0 = Date.UTC(2026, 0, 1);

function samples(): SampleSource {
  const at = (dt: number, s: Omit<ContainerSample, 'time'>): ContainerSample => ({ time: T0 + dt, ...s });
  const data: Record<string, [ContainerSample, ContainerSample]> = {
    '/': [at(0, { cpu: cpu(0), memory: mem(1000) }), at(10_000, { cpu: cpu(15e9), memory: mem(4000) })],
    '/kubepods/besteffort/podu1': [
      at(0, { cpu: cpu(0) }),
      at(10_000, { cpu: cpu(5e9), memory: mem(3000), processes: { processes: 0, threads: 5 }, network: [{ name: 'lo', rxBytes: 1, rxPackets: 1, rxErrors: 0, rxDropped: 0, txBytes: 1, txPackets: 1, txErrors: 0, txDropped: 0 }, { name: 'eth0', rxBytes: 500, rxPackets: 5, rxErrors: 1, rxDropped: 0, txBytes: 700, txPackets: 7, txErrors: 2, txDropped: 0 }] }),
    ],
    '/kubepods/besteffort/podu1/cid1': [at(0, { cpu: cpu(0) }), at(10_000, { cpu: cpu(2e9), memory: mem(2000, 10_000), processes: { processes: 2, threads: 2 } })],
  };
  return { latest: (k) => data[k]?.[1], previous: (k) => data[k]?.[0] };
}

test('Summary from samples, statfs and du', async () => {
  const f = makeFixture('v1');
  try {
    f.write('/proc/sys/kernel/pid_max', '4194304\n');
    f.write('/proc/sys/kernel/threads-max', '200000\n');
    f.write('/proc/loadavg', '0.1 0.2 0.3 1/321 999\n');
    f.write('/var/lib/kubelet/.keep', '');
    f.write('/var/log/pods/default_p_u1/c/0.log', 'x');
    const provider: SummaryProvider = {
      nodeName: () => 'node-a',
      nodeStartTime: () => T0 - 1000,
      nodeFsPath: () => '/var/lib/kubelet',
      imageFsPath: () => '/var/lib/kubelet',
      pods: () => [{
        ref: { name: 'p', namespace: 'default', uid: 'u1' },
        startTime: T0,
        cgroup: '/kubepods/besteffort/podu1',
        containers: [{ name: 'c', cgroup: '/kubepods/besteffort/podu1/cid1', startTime: T0 + 5, logDir: '/var/log/pods/default_p_u1/c', rootfsPath: '/rootfs' }],
        volumes: [{ name: 'data', path: '/var/lib/kubelet' }],
      }],
      systemContainers: () => [{ name: 'kubelet', cgroup: '/absent', startTime: T0 }],
    };
    const du = async (p: string) => ({ '/var/log/pods/default_p_u1/c': { bytes: 4096, inodes: 2 }, '/rootfs': { bytes: 8192, inodes: 3 }, '/var/lib/kubelet': { bytes: 100, inodes: 1 } })[p];
    const b = new SummaryBuilder({ provider, samples: samples(), fs: f.fs, du, clock: new FakeClock(T0 + 10_000), memoryCapacityBytes: () => 10_000 });
    const s = await b.build();
    assert.equal(s.node.nodeName, 'node-a');
    assert.deepEqual(s.node.cpu, { time: '2026-01-01T00:00:10.000Z', usageCoreNanoSeconds: 15e9, usageNanoCores: 1.5e9 });
    assert.equal(s.node.memory?.availableBytes, 6000);
    assert.deepEqual(s.node.rlimit, { time: '2026-01-01T00:00:10.000Z', maxpid: 200000, curproc: 321 });
    assert.ok((s.node.fs?.capacityBytes ?? 0) > 0);
    assert.ok(s.node.runtime?.imageFs);
    assert.deepEqual(s.node.systemContainers, [{ name: 'kubelet', startTime: '2026-01-01T00:00:00.000Z' }]);
    const pod = s.pods[0];
    assert.ok(pod);
    assert.equal(pod.cpu?.usageNanoCores, 5e8);
    assert.equal(pod.memory?.workingSetBytes, 3000);
    // The containers' counts summed (the kubelet's mergeProcessStats), not the pod cgroup's own (0, as cAdvisor reads it).
    assert.deepEqual(pod.process_stats, { process_count: 2 });
    assert.equal(pod.network?.name, 'eth0');
    assert.equal(pod.network?.rxBytes, 500);
    assert.equal(pod.network?.interfaces?.length, 2);
    assert.equal(pod.volume?.[0]?.name, 'data');
    assert.equal(pod.volume?.[0]?.usedBytes, 100);
    assert.equal(pod['ephemeral-storage']?.usedBytes, 4096 + 8192 + 100);
    const c = pod.containers[0];
    assert.equal(c?.cpu?.usageNanoCores, 2e8);
    assert.equal(c?.memory?.availableBytes, 8000);
    assert.equal(c?.logs?.usedBytes, 4096);
    assert.equal(c?.rootfs?.usedBytes, 8192);
    const fromRuntime = await b.container({ name: 'w', cgroup: '/x', startTime: T0, rootfsPath: '/rootfs', writableLayer: { usedBytes: 5 << 20, inodesUsed: 4 } });
    assert.equal(fromRuntime.rootfs?.usedBytes, 5 << 20, "the runtime's writable layer wins over a du of rootfsPath");
    assert.equal(fromRuntime.rootfs?.inodesUsed, 4);
    assert.ok((fromRuntime.rootfs?.capacityBytes ?? 0) > 0, 'capacity from the imagefs statfs');
    const only = b.cpuAndMemory();
    assert.equal(only.pods[0]?.containers[0]?.memory?.workingSetBytes, 2000);
    assert.equal(only.node.fs, undefined);
    assert.ok(JSON.parse(JSON.stringify(s)));
  } finally {
    f.cleanup();
  }
});

test('one statfs per filesystem path per second, however many containers sit on it', async () => {
  const f = makeFixture('v1');
  try {
    f.write('/var/lib/kubelet/.keep', '');
    const calls: string[] = [];
    const fs = { ...f.fs, statfs: (p: string) => (calls.push(p), f.fs.statfs(p)) };
    const containers = ['a', 'b', 'c'].map((n) => ({ name: n, cgroup: `/kubepods/podu1/${n}`, startTime: T0, logDir: '/var/lib/kubelet' }));
    const provider: SummaryProvider = {
      nodeName: () => 'node-a', nodeStartTime: () => T0, nodeFsPath: () => '/var/lib/kubelet', imageFsPath: () => '/var/lib/kubelet',
      pods: () => [{ ref: { name: 'p', namespace: 'default', uid: 'u1' }, startTime: T0, cgroup: '/kubepods/podu1', containers }],
      systemContainers: () => [],
    };
    const clock = new FakeClock(T0);
    const b = new SummaryBuilder({ provider, samples: samples(), fs, du: async () => ({ bytes: 1, inodes: 1 }), clock, memoryCapacityBytes: () => 10_000 });
    const s = await b.build();
    assert.equal(s.pods[0]?.containers.length, 3);
    assert.deepEqual(calls, ['/var/lib/kubelet']);
    await clock.step(1000);
    await b.build();
    assert.deepEqual(calls, ['/var/lib/kubelet', '/var/lib/kubelet'], 'a second later the filesystem is asked again');
  } finally {
    f.cleanup();
  }
});
