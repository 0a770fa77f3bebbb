/**
 * Pull-based /metrics/cadvisor: container_* and machine_* series computed at scrape time from the stats
 * layer (the housekeeper's latest samples), with the kubelet's label set id, name, image, pod, namespace,
 * container. Nothing is stored between scrapes; a container without a sample exports nothing.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ContainerSample, MachineInfo } from '../stats/types.ts';
import type { CadvisorContainerInfo, CadvisorSource } from './types.ts';
import { getOrCreate } from './registry.ts';

export type { CadvisorContainerInfo, CadvisorSource } from './types.ts';

const BASE = ['id', 'name', 'image', 'pod', 'namespace', 'container'] as const;
type Row = [Record<string, string>, number];
type ContainerMetric = { name: string; help: string; type: 'counter' | 'gauge'; extra?: string[]; rows: (c: CadvisorContainerInfo, s: ContainerSample) => Row[] };

const one = (v: number | undefined): Row[] => (v === undefined ? [] : [[{}, v]]);
const NS = 1e-9;

const CONTAINER_METRICS: ContainerMetric[] = [
  { name: 'container_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed in seconds.', type: 'counter', extra: ['cpu'], rows: (_c, s) => (s.cpu ? [[{ cpu: 'total' }, s.cpu.usageNanoseconds * NS]] : []) },
  { name: 'container_cpu_user_seconds_total', help: 'Cumulative user cpu time in seconds.', type: 'counter', rows: (_c, s) => one(s.cpu && s.cpu.userNanoseconds * NS) },
  { name: 'container_cpu_system_seconds_total', help: 'Cumulative system cpu time in seconds.', type: 'counter', rows: (_c, s) => one(s.cpu && s.cpu.systemNanoseconds * NS) },
  { name: 'container_cpu_cfs_periods_total', help: 'Elapsed CFS enforcement periods.', type: 'counter', rows: (_c, s) => one(s.cpu?.periods) },
  { name: 'container_cpu_cfs_throttled_periods_total', help: 'Throttled CFS periods.', type: 'counter', rows: (_c, s) => one(s.cpu?.throttledPeriods) },
  { name: 'container_cpu_cfs_throttled_seconds_total', help: 'Total time the container was throttled, seconds.', type: 'counter', rows: (_c, s) => one(s.cpu && s.cpu.throttledNanoseconds * NS) },
  { name: 'container_memory_usage_bytes', help: 'Current memory usage in bytes, cache included.', type: 'gauge', rows: (_c, s) => one(s.memory?.usageBytes) },
  { name: 'container_memory_working_set_bytes', help: 'Current working set in bytes.', type: 'gauge', rows: (_c, s) => one(s.memory?.workingSetBytes) },
  { name: 'container_memory_rss', help: 'Size of RSS in bytes.', type: 'gauge', rows: (_c, s) => one(s.memory?.rssBytes) },
  { name: 'container_memory_cache', help: 'Page cache in bytes.', type: 'gauge', rows: (_c, s) => one(s.memory?.cacheBytes) },
  { name: 'container_memory_swap', help: 'Swap usage in bytes.', type: 'gauge', rows: (_c, s) => one(s.memory?.swapBytes) },
  { name: 'container_memory_mapped_file', help: 'Size of memory mapped files in bytes.', type: 'gauge', rows: (_c, s) => one(s.memory?.mappedFileBytes) },
  { name: 'container_memory_max_usage_bytes', help: 'Maximum memory usage recorded in bytes.', type: 'gauge', rows: (_c, s) => one(s.memory?.maxUsageBytes) },
  { name: 'container_memory_failcnt', help: 'Number of memory usage hits limits.', type: 'counter', rows: (_c, s) => one(s.memory?.failcnt) },
  {
    name: 'container_memory_failures_total', help: 'Cumulative count of memory allocation failures.', type: 'counter', extra: ['failure_type', 'scope'],
    rows: (_c, s) => (s.memory ? [[{ failure_type: 'pgfault', scope: 'hierarchy' }, s.memory.pageFaults], [{ failure_type: 'pgmajfault', scope: 'hierarchy' }, s.memory.majorPageFaults]] : []),
  },
  { name: 'container_oom_events_total', help: 'Count of out of memory events observed for the container.', type: 'counter', rows: (_c, s) => one(s.memory?.oomKills) },
  { name: 'container_processes', help: 'Number of processes running inside the container.', type: 'gauge', rows: (_c, s) => one(s.processes?.processes) },
  { name: 'container_threads', help: 'Number of threads running inside the container.', type: 'gauge', rows: (_c, s) => one(s.processes?.threads) },
  ...netMetrics(),
  ...fsMetrics(),
  { name: 'container_last_seen', help: 'Last time the container was seen by the exporter, unix seconds.', type: 'gauge', rows: (_c, s) => one(s.time / 1000) },
  { name: 'container_start_time_seconds', help: 'Start time of the container since unix epoch in seconds.', type: 'gauge', rows: (c) => one(c.spec?.startTimeMs === undefined ? undefined : c.spec.startTimeMs / 1000) },
  { name: 'container_spec_cpu_period', help: 'CPU period of the container.', type: 'gauge', rows: (c) => one(c.spec?.cpuPeriod) },
  { name: 'container_spec_cpu_quota', help: 'CPU quota of the container.', type: 'gauge', rows: (c) => one(c.spec?.cpuQuota !== undefined && c.spec.cpuQuota > 0 ? c.spec.cpuQuota : undefined) },
  { name: 'container_spec_cpu_shares', help: 'CPU share of the container.', type: 'gauge', rows: (c) => one(c.spec?.cpuShares) },
  { name: 'container_spec_memory_limit_bytes', help: 'Memory limit for the container.', type: 'gauge', rows: (c) => one(c.spec?.memoryLimit === undefined ? undefined : Math.max(0, c.spec.memoryLimit)) },
];

function netMetrics(): ContainerMetric[] {
  const defs: [string, string, keyof NonNullable<ContainerSample['network']>[number]][] = [
    ['container_network_receive_bytes_total', 'Cumulative count of bytes received.', 'rxBytes'],
    ['container_network_receive_packets_total', 'Cumulative count of packets received.', 'rxPackets'],
    ['container_network_receive_errors_total', 'Cumulative count of errors encountered while receiving.', 'rxErrors'],
    ['container_network_receive_packets_dropped_total', 'Cumulative count of packets dropped while receiving.', 'rxDropped'],
    ['container_network_transmit_bytes_total', 'Cumulative count of bytes transmitted.', 'txBytes'],
    ['container_network_transmit_packets_total', 'Cumulative count of packets transmitted.', 'txPackets'],
    ['container_network_transmit_errors_total', 'Cumulative count of errors encountered while transmitting.', 'txErrors'],
    ['container_network_transmit_packets_dropped_total', 'Cumulative count of packets dropped while transmitting.', 'txDropped'],
  ];
  return defs.map(([name, help, key]) => ({
    name, help, type: 'counter' as const, extra: ['interface'],
    rows: (_c: CadvisorContainerInfo, s: ContainerSample) => (s.network ?? []).map((i): Row => [{ interface: i.name }, i[key] as number]),
  }));
}

function fsMetrics(): ContainerMetric[] {
  const defs: [string, string, 'usageBytes' | 'limitBytes' | 'inodesFree' | 'inodes'][] = [
    ['container_fs_usage_bytes', 'Number of bytes consumed by the container on this filesystem.', 'usageBytes'],
    ['container_fs_limit_bytes', 'Number of bytes the container can consume on this filesystem.', 'limitBytes'],
    ['container_fs_inodes_free', 'Number of available inodes.', 'inodesFree'],
    ['container_fs_inodes_total', 'Number of inodes.', 'inodes'],
  ];
  return defs.map(([name, help, key]) => ({
    name, help, type: 'gauge' as const, extra: ['device'],
    rows: (c: CadvisorContainerInfo) => (c.fs ?? []).map((f): Row => [{ device: f.device }, f[key]]),
  }));
}

function baseLabels(c: CadvisorContainerInfo): Record<string, string> {
  return { id: c.id, name: c.name ?? '', image: c.image ?? '', pod: c.pod ?? '', namespace: c.namespace ?? '', container: c.container ?? '' };
}

function registerContainerMetric(registry: Registry, source: CadvisorSource, m: ContainerMetric): void {
  const labelNames = [...BASE, ...(m.extra ?? [])];
  const fill = (set: (labels: Record<string, string>, v: number) => void) => {
    for (const c of source.containers()) {
      if (!c.sample) continue;
      for (const [extra, v] of m.rows(c, c.sample)) if (Number.isFinite(v)) set({ ...baseLabels(c), ...extra }, v);
    }
  };
  getOrCreate(registry, m.name, () =>
    m.type === 'counter'
      ? new Counter({ name: m.name, help: m.help, labelNames, registers: [registry], collect(this: Counter) { this.reset(); fill((l, v) => this.inc(l, v)); } })
      : new Gauge({ name: m.name, help: m.help, labelNames, registers: [registry], collect(this: Gauge) { this.reset(); fill((l, v) => this.set(l, v)); } }),
  );
}

function registerMachineMetrics(registry: Registry, source: CadvisorSource): void {
  const defs: [string, string, (m: MachineInfo) => number][] = [
    ['machine_cpu_cores', 'Number of logical CPU cores.', (m) => m.numCores],
    ['machine_cpu_physical_cores', 'Number of physical CPU cores.', (m) => m.numPhysicalCores],
    ['machine_cpu_sockets', 'Number of CPU sockets.', (m) => m.numSockets],
    ['machine_memory_bytes', 'Amount of memory installed on the machine.', (m) => m.memoryCapacityBytes],
    ['machine_swap_bytes', 'Amount of swap memory available on the machine.', (m) => m.swapCapacityBytes],
  ];
  for (const [name, help, pick] of defs) {
    getOrCreate(registry, name, () => new Gauge({
      name, help, labelNames: ['boot_id', 'machine_id', 'system_uuid'], registers: [registry],
      collect(this: Gauge) {
        this.reset();
        const m = source.machine();
        if (m) this.set({ boot_id: m.bootId, machine_id: m.machineId, system_uuid: m.systemUuid }, pick(m));
      },
    }));
  }
  if (source.version) {
    const version = source.version.bind(source);
    getOrCreate(registry, 'cadvisor_version_info', () => new Gauge({
      name: 'cadvisor_version_info', help: 'A metric with a constant 1 value labeled by kernel version, OS version, exporter version and revision.',
      labelNames: ['cadvisorRevision', 'cadvisorVersion', 'dockerVersion', 'kernelVersion', 'osVersion'], registers: [registry],
      collect(this: Gauge) { this.reset(); this.set(version(), 1); },
    }));
  }
}

/** Registers every container_* and machine_* collector on the registry (idempotent). */
export function registerCadvisorCollectors(registry: Registry, source: CadvisorSource): void {
  for (const m of CONTAINER_METRICS) registerContainerMetric(registry, source, m);
  registerMachineMetrics(registry, source);
}

export const CADVISOR_CONTAINER_METRIC_NAMES = CONTAINER_METRICS.map((m) => m.name);
