/**
 * Pull-based /metrics/cadvisor: container_* and machine_* series computed at scrape time from the stats
 * layer (the housekeeper's latest samples), with the kubelet's label set id, name, image, pod, namespace,
 * container. Nothing is stored between scrapes; a container without a sample exports nothing.
 */
import type { ContainerSample, MachineInfo } from '../stats/types.ts';
import { deflatePart, gzipFromParts } from './gzip-segments.ts';
import type { CadvisorContainerInfo, CadvisorSource } from './types.ts';

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

/** Prometheus text format 0.0.4, as prom-client writes it (the other endpoints' registries). */
export const CADVISOR_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const escapeHelp = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (v: string): string => escapeHelp(v).replace(/"/g, '\\"');

function labelText(c: CadvisorContainerInfo): string {
  return `id="${escapeLabel(c.id)}",name="${escapeLabel(c.name ?? '')}",image="${escapeLabel(c.image ?? '')}",pod="${escapeLabel(c.pod ?? '')}",namespace="${escapeLabel(c.namespace ?? '')}",container="${escapeLabel(c.container ?? '')}"`;
}

function block(name: string, help: string, type: string, lines: string[]): string {
  return [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`, ...lines].join('\n');
}

/**
 * A container's series as bytes: each container metric's lines, each line preceded by '\n', one after the other in
 * CONTAINER_METRICS order; `ends[j]` is where metric j's lines end (metric j spans ends[j - 1] or 0 .. ends[j]).
 */
interface ContainerBytes {
  id: string;
  sample: ContainerSample;
  described: string;
  bytes: Buffer;
  ends: number[];
}

function containerBytes(c: CadvisorContainerInfo, described: string): ContainerBytes {
  const labels = labelText(c);
  const segments = CONTAINER_METRICS.map((m) => {
    let seg = '';
    for (const [extra, v] of m.rows(c, c.sample as ContainerSample)) {
      if (!Number.isFinite(v)) continue;
      let l = labels;
      for (const [k, x] of Object.entries(extra)) l += `,${k}="${escapeLabel(x)}"`;
      seg += `\n${m.name}{${l}} ${v}`;
    }
    return seg;
  });
  let at = 0;
  const ends = segments.map((seg) => (at += Buffer.byteLength(seg)));
  return { id: c.id, sample: c.sample as ContainerSample, described, bytes: Buffer.from(segments.join('')), ends };
}

/** Everything of a container its lines show besides its sample (compared by identity). */
const describe = (c: CadvisorContainerInfo): string => JSON.stringify([c.id, c.name, c.image, c.pod, c.namespace, c.container, c.spec, c.fs]);

const HEADERS = CONTAINER_METRICS.map((m) => `# HELP ${m.name} ${escapeHelp(m.help)}\n# TYPE ${m.name} ${m.type}`);

/** One metric block of the page with the separator after it, and its deflated bytes once asked. */
interface Block {
  bytes: Buffer;
  deflated?: Promise<Buffer>;
}

/** A rendered page: its bytes, and gzip() the same bytes gzipped (one member; each block deflated on its own). */
export interface RenderedPage {
  bytes: Buffer;
  gzip(): Promise<Buffer>;
}

/**
 * /metrics/cadvisor at scrape time, written straight as text (through prom-client's labelled collectors a scrape
 * hashed and stored every series again: ≈ 0.7 s at 110 pods). Same series, label order and format as before; a
 * container without a sample exports nothing. A renderer keeps each container's lines (as bytes) from its last
 * render and writes them again only for a container whose sample (a new object per housekeeping sample), labels,
 * spec or filesystem rows changed — the samples land one container at a time — and keeps each metric's block
 * (and its deflated bytes) while no container's lines of that metric changed.
 */
export class CadvisorRenderer {
  private kept = new Map<string, ContainerBytes>();
  private order: ContainerBytes[] = [];
  private blocks: Block[] = [];
  private tail = '';

  renderPage(source: CadvisorSource): RenderedPage {
    const seen = new Set<string>();
    const next = new Map<string, ContainerBytes>();
    for (const c of source.containers()) {
      if (!c.sample || seen.has(c.id)) continue;
      seen.add(c.id);
      const described = describe(c);
      const old = this.kept.get(c.id);
      next.set(c.id, old && old.sample === c.sample && old.described === described ? old : containerBytes(c, described));
    }
    const per = [...next.values()];
    const dirty = this.changedMetrics(per);
    this.kept = next;
    this.order = per;
    HEADERS.forEach((h, j) => {
      if (!dirty[j] && this.blocks[j]) return;
      const parts: Buffer[] = [Buffer.from(h)];
      for (const p of per) parts.push(p.bytes.subarray(j === 0 ? 0 : p.ends[j - 1], p.ends[j]));
      parts.push(Buffer.from('\n\n'));
      this.blocks[j] = { bytes: Buffer.concat(parts) };
    });
    const tail = `${machineBlocks(source).join('\n\n')}\n`;
    if (tail !== this.tail || !this.blocks[HEADERS.length]) this.blocks[HEADERS.length] = { bytes: Buffer.from(tail) };
    this.tail = tail;
    const blocks = [...this.blocks];
    let bytes: Buffer | undefined;
    return {
      get bytes() {
        return (bytes ??= Buffer.concat(blocks.map((b) => b.bytes))); // a client that takes gzip never needs it
      },
      gzip: async () => gzipFromParts(blocks.map((b) => b.bytes), await Promise.all(blocks.map((b) => (b.deflated ??= deflatePart(b.bytes))))),
    };
  }

  render(source: CadvisorSource): string {
    return this.renderPage(source).bytes.toString();
  }

  /** Which metrics' blocks differ from the last render's: all when the containers changed, else per rewritten container. */
  private changedMetrics(per: ContainerBytes[]): boolean[] {
    const dirty = HEADERS.map(() => false);
    const same = per.length === this.order.length && per.every((p, i) => (this.order[i] as ContainerBytes).id === p.id);
    if (!same) return dirty.map(() => true);
    per.forEach((p, i) => {
      const o = this.order[i] as ContainerBytes;
      if (o === p) return;
      for (let j = 0; j < dirty.length; j++) {
        if (dirty[j]) continue;
        const [s0, s1, o0, o1] = [j === 0 ? 0 : (p.ends[j - 1] as number), p.ends[j] as number, j === 0 ? 0 : (o.ends[j - 1] as number), o.ends[j] as number];
        dirty[j] = p.bytes.compare(o.bytes, o0, o1, s0, s1) !== 0;
      }
    });
    return dirty;
  }
}

/** One render with nothing kept (tests, one-off pages). */
export function renderCadvisorMetrics(source: CadvisorSource): string {
  return new CadvisorRenderer().render(source);
}

/** The machine_* and cadvisor_version_info blocks, after the container blocks. */
function machineBlocks(source: CadvisorSource): string[] {
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
