/** A registry holding every metric this folder defines, with representative values (promtool, UI fixtures). */
import { Registry } from 'prom-client';
import type { ContainerSample } from '../../stats/types.ts';
import type { CadvisorContainerInfo } from '../cadvisor-collector.ts';
import { renderCadvisorMetrics } from '../cadvisor-renderer.ts';
import { createKubeletMetrics, imageSizeBucket } from '../kubelet-metrics.ts';

export const SAMPLE: ContainerSample = {
  time: Date.UTC(2026, 0, 1),
  cpu: { usageNanoseconds: 5e9, userNanoseconds: 3e9, systemNanoseconds: 2e9, periods: 10, throttledPeriods: 2, throttledNanoseconds: 1e8 },
  memory: {
    usageBytes: 1000, workingSetBytes: 800, rssBytes: 600, cacheBytes: 200, mappedFileBytes: 10, swapBytes: 0, maxUsageBytes: 1200,
    failcnt: 3, oomEvents: 1, oomKills: 1, pageFaults: 100, majorPageFaults: 2, limitBytes: 4096,
  },
  processes: { processes: 2, threads: 5 },
  network: [{ name: 'eth0', rxBytes: 10, rxPackets: 1, rxErrors: 0, rxDropped: 0, txBytes: 20, txPackets: 2, txErrors: 0, txDropped: 0 }],
};

export const SAMPLE_CONTAINERS: CadvisorContainerInfo[] = [
  { id: '/', sample: SAMPLE },
  { id: '/kubepods/burstable/podu1', pod: 'web', namespace: 'default', sample: SAMPLE, spec: { cpuShares: 102, cpuPeriod: 100000, cpuQuota: 20000, memoryLimit: 4096 } },
  {
    id: '/kubepods/burstable/podu1/abc', name: 'abc', image: 'nodelet.local/host:latest', pod: 'web', namespace: 'default', container: 'app', sample: SAMPLE,
    spec: { cpuShares: 102, memoryLimit: -1, startTimeMs: Date.UTC(2026, 0, 1) },
    fs: [{ device: '/dev/sda1', usageBytes: 4096, limitBytes: 1e9, inodesFree: 1000, inodes: 2000 }],
  },
  { id: '/kubepods/besteffort/podgone' },
];

export function sampleRegistry(): Registry {
  const r = new Registry();
  const k = createKubeletMetrics(r);
  k.nodeName.set({ node: 'node-a' }, 1);
  k.podStartDuration.observe(1.2);
  k.runtimeOperations.inc({ operation_type: 'list_containers' });
  k.runtimeOperationsDuration.observe({ operation_type: 'list_containers' }, 0.004);
  k.runningContainers.set({ container_state: 'running' }, 2);
  k.plegDiscardEvents.inc();
  k.eventedPlegConnectionErrors.inc();
  k.evictions.inc({ eviction_signal: 'memory.available' });
  k.imagePullDuration.observe({ image_size_in_bytes: imageSizeBucket(5e6) }, 2);
  k.volumeStatsUsedBytes.set({ namespace: 'default', persistentvolumeclaim: 'data' }, 1);
  return r;
}

/** The sample registry's text followed by /metrics/cadvisor's for the sample containers (promtool). */
export async function sampleExposition(): Promise<string> {
  return `${await sampleRegistry().metrics()}\n${renderCadvisorMetrics({
    containers: () => SAMPLE_CONTAINERS,
    machine: () => ({
      numCores: 2, numPhysicalCores: 2, numSockets: 1, cpuFrequencyKhz: 0, memoryCapacityBytes: 2 ** 34, swapCapacityBytes: 0, machineId: 'm', systemUuid: 's',
      bootId: 'b', kernelVersion: '6.18', osImage: 'Debian', interfaces: [], filesystems: [],
    }),
    version: () => ({ kernelVersion: '6.18', osVersion: 'Debian GNU/Linux 12 (bookworm)', cadvisorVersion: 'nodelet', cadvisorRevision: '', dockerVersion: '' }),
  })}`;
}
