/**
 * Pull-based /metrics/cadvisor: container_* and machine_* series computed at scrape time from the stats
 * layer (the housekeeper's latest samples), with the kubelet's label set id, name, image, pod, namespace,
 * container. A container without a sample exports nothing. The page is written by CadvisorRenderer
 * (cadvisor-renderer.ts).
 */
import type { ContainerSample, MachineInfo } from '../stats/types.ts';
import type { CadvisorContainerInfo, CadvisorSource } from './types.ts';

export type { CadvisorContainerInfo, CadvisorSource } from './types.ts';

/** Every container series' labels, in this order, before the metric's own. */
export const CADVISOR_LABELS = ['id', 'name', 'image', 'pod', 'namespace', 'container'] as const;

/**
 * Where a metric's series go, one add() per series: its value (nothing is written for undefined or a value that is
 * not finite) and its extra labels' values in the metric's `extra` order. The renderer writes text lines; a test can
 * hand the same series to prom-client.
 */
export interface SeriesSink {
  add(v: number | undefined, a?: string, b?: string): void;
}
export interface ContainerMetric {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  extra?: readonly string[];
  series: (c: CadvisorContainerInfo, s: ContainerSample, out: SeriesSink) => void;
}

const NS = 1e-9;

export const CONTAINER_METRICS: readonly ContainerMetric[] = [
  { name: 'container_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed in seconds.', type: 'counter', extra: ['cpu'], series: (_c, s, o) => s.cpu && o.add(s.cpu.usageNanoseconds * NS, 'total') },
  { name: 'container_cpu_user_seconds_total', help: 'Cumulative user cpu time in seconds.', type: 'counter', series: (_c, s, o) => o.add(s.cpu && s.cpu.userNanoseconds * NS) },
  { name: 'container_cpu_system_seconds_total', help: 'Cumulative system cpu time in seconds.', type: 'counter', series: (_c, s, o) => o.add(s.cpu && s.cpu.systemNanoseconds * NS) },
  { name: 'container_cpu_cfs_periods_total', help: 'Elapsed CFS enforcement periods.', type: 'counter', series: (_c, s, o) => o.add(s.cpu?.periods) },
  { name: 'container_cpu_cfs_throttled_periods_total', help: 'Throttled CFS periods.', type: 'counter', series: (_c, s, o) => o.add(s.cpu?.throttledPeriods) },
  { name: 'container_cpu_cfs_throttled_seconds_total', help: 'Total time the container was throttled, seconds.', type: 'counter', series: (_c, s, o) => o.add(s.cpu && s.cpu.throttledNanoseconds * NS) },
  { name: 'container_memory_usage_bytes', help: 'Current memory usage in bytes, cache included.', type: 'gauge', series: (_c, s, o) => o.add(s.memory?.usageBytes) },
  { name: 'container_memory_working_set_bytes', help: 'Current working set in bytes.', type: 'gauge', series: (_c, s, o) => o.add(s.memory?.workingSetBytes) },
  { name: 'container_memory_rss', help: 'Size of RSS in bytes.', type: 'gauge', series: (_c, s, o) => o.add(s.memory?.rssBytes) },
  { name: 'container_memory_cache', help: 'Page cache in bytes.', type: 'gauge', series: (_c, s, o) => o.add(s.memory?.cacheBytes) },
  { name: 'container_memory_swap', help: 'Swap usage in bytes.', type: 'gauge', series: (_c, s, o) => o.add(s.memory?.swapBytes) },
  { name: 'container_memory_mapped_file', help: 'Size of memory mapped files in bytes.', type: 'gauge', series: (_c, s, o) => o.add(s.memory?.mappedFileBytes) },
  { name: 'container_memory_max_usage_bytes', help: 'Maximum memory usage recorded in bytes.', type: 'gauge', series: (_c, s, o) => o.add(s.memory?.maxUsageBytes) },
  { name: 'container_memory_failcnt', help: 'Number of memory usage hits limits.', type: 'counter', series: (_c, s, o) => o.add(s.memory?.failcnt) },
  {
    name: 'container_memory_failures_total', help: 'Cumulative count of memory allocation failures.', type: 'counter', extra: ['failure_type', 'scope'],
    series: (_c, s, o) => {
      if (!s.memory) return;
      o.add(s.memory.pageFaults, 'pgfault', 'hierarchy');
      o.add(s.memory.majorPageFaults, 'pgmajfault', 'hierarchy');
    },
  },
  { name: 'container_oom_events_total', help: 'Count of out of memory events observed for the container.', type: 'counter', series: (_c, s, o) => o.add(s.memory?.oomKills) },
  { name: 'container_processes', help: 'Number of processes running inside the container.', type: 'gauge', series: (_c, s, o) => o.add(s.processes?.processes) },
  { name: 'container_threads', help: 'Number of threads running inside the container.', type: 'gauge', series: (_c, s, o) => o.add(s.processes?.threads) },
  ...netMetrics(),
  ...fsMetrics(),
  { name: 'container_last_seen', help: 'Last time the container was seen by the exporter, unix seconds.', type: 'gauge', series: (_c, s, o) => o.add(s.time / 1000) },
  { name: 'container_start_time_seconds', help: 'Start time of the container since unix epoch in seconds.', type: 'gauge', series: (c, _s, o) => o.add(c.spec?.startTimeMs === undefined ? undefined : c.spec.startTimeMs / 1000) },
  { name: 'container_spec_cpu_period', help: 'CPU period of the container.', type: 'gauge', series: (c, _s, o) => o.add(c.spec?.cpuPeriod) },
  { name: 'container_spec_cpu_quota', help: 'CPU quota of the container.', type: 'gauge', series: (c, _s, o) => o.add(c.spec?.cpuQuota !== undefined && c.spec.cpuQuota > 0 ? c.spec.cpuQuota : undefined) },
  { name: 'container_spec_cpu_shares', help: 'CPU share of the container.', type: 'gauge', series: (c, _s, o) => o.add(c.spec?.cpuShares) },
  { name: 'container_spec_memory_limit_bytes', help: 'Memory limit for the container.', type: 'gauge', series: (c, _s, o) => o.add(c.spec?.memoryLimit === undefined ? undefined : Math.max(0, c.spec.memoryLimit)) },
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
    series: (_c: CadvisorContainerInfo, s: ContainerSample, o: SeriesSink) => {
      for (const i of s.network ?? []) o.add(i[key] as number, i.name);
    },
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
    series: (c: CadvisorContainerInfo, _s: ContainerSample, o: SeriesSink) => {
      for (const f of c.fs ?? []) o.add(f[key], f.device);
    },
  }));
}

/** Prometheus text format 0.0.4, as prom-client writes it (the other endpoints' registries). */
export const CADVISOR_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const escapeHelp = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const LABEL_SPECIAL = /[\\\n"]/;
export const escapeLabel = (v: string): string => (LABEL_SPECIAL.test(v) ? escapeHelp(v).replace(/"/g, '\\"') : v);

/** `{id="…",…,container="…"` of a container's lines, written once per container. */
export function labelText(c: CadvisorContainerInfo): string {
  return `{id="${escapeLabel(c.id)}",name="${escapeLabel(c.name ?? '')}",image="${escapeLabel(c.image ?? '')}",pod="${escapeLabel(c.pod ?? '')}",namespace="${escapeLabel(c.namespace ?? '')}",container="${escapeLabel(c.container ?? '')}"`;
}

/** A metric's `# HELP` and `# TYPE` lines. */
export const header = (name: string, help: string, type: string): string => `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}`;

function block(name: string, help: string, type: string, lines: string[]): string {
  return [header(name, help, type), ...lines].join('\n');
}

/** The machine_* and cadvisor_version_info blocks, after the container blocks. */
export function machineBlocks(source: CadvisorSource): string[] {
  const blocks: string[] = [];
  const machine = source.machine();
  const machineLabels = machine ? `boot_id="${escapeLabel(machine.bootId)}",machine_id="${escapeLabel(machine.machineId)}",system_uuid="${escapeLabel(machine.systemUuid)}"` : '';
  for (const [name, help, pick] of MACHINE_METRICS) {
    const v = machine ? pick(machine) : undefined;
    blocks.push(block(name, help, 'gauge', v !== undefined && Number.isFinite(v) ? [`${name}{${machineLabels}} ${v}`] : []));
  }
  if (source.version) {
    const v = source.version();
    const l = (['cadvisorRevision', 'cadvisorVersion', 'dockerVersion', 'kernelVersion', 'osVersion'] as const).map((k) => `${k}="${escapeLabel(v[k])}"`).join(',');
    blocks.push(block('cadvisor_version_info', 'A metric with a constant 1 value labeled by kernel version, OS version, exporter version and revision.', 'gauge', [`cadvisor_version_info{${l}} 1`]));
  }
  return blocks;
}

const MACHINE_METRICS: [string, string, (m: MachineInfo) => number][] = [
  ['machine_cpu_cores', 'Number of logical CPU cores.', (m) => m.numCores],
  ['machine_cpu_physical_cores', 'Number of physical CPU cores.', (m) => m.numPhysicalCores],
  ['machine_cpu_sockets', 'Number of CPU sockets.', (m) => m.numSockets],
  ['machine_memory_bytes', 'Amount of memory installed on the machine.', (m) => m.memoryCapacityBytes],
  ['machine_swap_bytes', 'Amount of swap memory available on the machine.', (m) => m.swapCapacityBytes],
];

export const CADVISOR_CONTAINER_METRIC_NAMES = CONTAINER_METRICS.map((m) => m.name);
