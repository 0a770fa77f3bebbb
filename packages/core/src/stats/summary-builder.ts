/**
 * Builds the kubelet's /stats/summary from housekeeping samples (cpu, memory, processes, network),
 * statfs (nodefs, imagefs, volumes) and du (container logs, writable layers, volumes). The kubelet wiring
 * provides the pods through SummaryProvider.
 */
import type { CgroupName, HostFs } from '../cm/types.ts';
import { readOptional } from '../cm/types.ts';
import type { Clock } from '../util/clock.ts';
import { fsStats, type FsStatsResult } from './fs-stats.ts';
import { defaultInterface } from './net-dev.ts';
import { parseLoadavg } from './parse.ts';
import { usageNanoCores } from './rates.ts';
import type { CPUStats, ContainerStats, FsStats, MemoryStats, NetworkStats, NodeStats, PodStats, Summary, SystemContainerName } from './summary-types.ts';
import type { ContainerSample, DiskUsage } from './types.ts';

export interface SummaryContainerSource {
  name: string;
  cgroup: CgroupName;
  startTime: number;
  /** Directory holding the container's log files (/var/log/pods/<ns>_<name>_<uid>/<container>). */
  logDir?: string;
  /** The container's writable layer as a directory to du, when the runtime exposes it. */
  rootfsPath?: string;
  /** The writable layer as the runtime measured it (CRI ContainerStats.writableLayer); wins over rootfsPath. */
  writableLayer?: { usedBytes: number; inodesUsed: number };
}

export interface SummaryPodSource {
  ref: { name: string; namespace: string; uid: string };
  startTime: number;
  cgroup: CgroupName;
  containers: SummaryContainerSource[];
  volumes?: { name: string; path: string; pvcRef?: { name: string; namespace: string } }[];
}

/** The seam the kubelet wiring implements. */
export interface SummaryProvider {
  nodeName(): string;
  nodeStartTime(): number;
  pods(): SummaryPodSource[];
  /** kubelet root dir's filesystem (nodefs) and the runtime's image store (imagefs). */
  nodeFsPath(): string;
  imageFsPath(): string;
  systemContainers?(): { name: SystemContainerName; cgroup: CgroupName; startTime: number }[];
}

export interface SampleSource {
  latest(key: string): ContainerSample | undefined;
  previous(key: string): ContainerSample | undefined;
}

export interface SummaryBuilderDeps {
  provider: SummaryProvider;
  samples: SampleSource;
  fs: HostFs;
  du: DiskUsage;
  clock: Clock;
  memoryCapacityBytes: () => number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function cpuStats(prev: ContainerSample | undefined, cur: ContainerSample | undefined): CPUStats | undefined {
  if (!cur?.cpu) return undefined;
  const out: CPUStats = { time: iso(cur.time), usageCoreNanoSeconds: cur.cpu.usageNanoseconds };
  const rate = usageNanoCores(prev, cur);
  if (rate !== undefined) out.usageNanoCores = rate;
  return out;
}

export function memoryStats(cur: ContainerSample | undefined, capacity?: number): MemoryStats | undefined {
  const m = cur?.memory;
  if (!cur || !m) return undefined;
  const out: MemoryStats = {
    time: iso(cur.time),
    usageBytes: m.usageBytes,
    workingSetBytes: m.workingSetBytes,
    rssBytes: m.rssBytes,
    pageFaults: m.pageFaults,
    majorPageFaults: m.majorPageFaults,
  };
  const limit = m.limitBytes > 0 && m.limitBytes < 2 ** 62 ? m.limitBytes : capacity;
  if (limit !== undefined && limit > 0) out.availableBytes = Math.max(0, limit - m.workingSetBytes);
  return out;
}

export function networkStats(cur: ContainerSample | undefined): NetworkStats | undefined {
  if (!cur?.network) return undefined;
  const ifaces = cur.network.map((i) => ({ name: i.name, rxBytes: i.rxBytes, rxErrors: i.rxErrors, txBytes: i.txBytes, txErrors: i.txErrors }));
  const def = defaultInterface(cur.network);
  const head = def ? ifaces.find((i) => i.name === def.name) : undefined;
  return { time: iso(cur.time), name: head?.name ?? '', ...head, interfaces: ifaces };
}

/** How long one statfs answer serves every container on the same filesystem (a summary asks per container). */
const STATFS_REUSE_MS = 1000;

export class SummaryBuilder {
  private readonly statfsMemo = new Map<string, { at: number; result: Promise<FsStatsResult> }>();

  constructor(private readonly deps: SummaryBuilderDeps) {}

  /**
   * statfs of `path`, one call per path per second: a summary's containers all sit on nodefs (logs) and imagefs
   * (rootfs), so a build at 110 pods made ≈ 330 identical statfs calls (cAdvisor answers them from its fs info).
   */
  private statfs(path: string): Promise<FsStatsResult> {
    const now = this.deps.clock.now();
    const hit = this.statfsMemo.get(path);
    if (hit && now - hit.at < STATFS_REUSE_MS) return hit.result;
    if (this.statfsMemo.size >= 64) for (const [k, v] of this.statfsMemo) if (now - v.at >= STATFS_REUSE_MS) this.statfsMemo.delete(k);
    const result = fsStats(this.deps.fs, path);
    this.statfsMemo.set(path, { at: now, result });
    return result;
  }

  private cpuMem(key: string, capacity?: number): { cpu?: CPUStats; memory?: MemoryStats } {
    const cur = this.deps.samples.latest(key);
    const out: { cpu?: CPUStats; memory?: MemoryStats } = {};
    const cpu = cpuStats(this.deps.samples.previous(key), cur);
    const memory = memoryStats(cur, capacity);
    if (cpu) out.cpu = cpu;
    if (memory) out.memory = memory;
    return out;
  }

  /** statfs of the filesystem holding path, with usedBytes/inodesUsed from du of `usagePath` when given. */
  private async fsOf(path: string, usagePath?: string): Promise<FsStats | undefined> {
    const s = await this.statfs(path);
    if (!s.ok) return undefined;
    const out: FsStats = { time: iso(this.deps.clock.now()), availableBytes: s.stats.availableBytes, capacityBytes: s.stats.capacityBytes, usedBytes: s.stats.usedBytes, inodesFree: s.stats.inodesFree, inodes: s.stats.inodes, inodesUsed: s.stats.inodesUsed };
    if (usagePath !== undefined) {
      const du = await this.deps.du(usagePath);
      out.usedBytes = du?.bytes ?? 0;
      out.inodesUsed = du?.inodes ?? 0;
    }
    return out;
  }

  async container(c: SummaryContainerSource): Promise<ContainerStats> {
    const p = this.deps.provider;
    const out: ContainerStats = { name: c.name, startTime: iso(c.startTime), ...this.cpuMem(c.cgroup) };
    const w = c.writableLayer;
    const rootfs = c.rootfsPath !== undefined && !w ? await this.fsOf(p.imageFsPath(), c.rootfsPath) : await this.fsOf(p.imageFsPath());
    if (rootfs) {
      if (w) out.rootfs = { ...rootfs, usedBytes: w.usedBytes, inodesUsed: w.inodesUsed };
      else out.rootfs = c.rootfsPath !== undefined ? rootfs : { ...rootfs, usedBytes: 0, inodesUsed: 0 };
    }
    if (c.logDir !== undefined) {
      const logs = await this.fsOf(p.nodeFsPath(), c.logDir);
      if (logs) out.logs = logs;
    }
    return out;
  }

  async pod(src: SummaryPodSource): Promise<PodStats> {
    const containers = await Promise.all(src.containers.map((c) => this.container(c)));
    const out: PodStats = { podRef: src.ref, startTime: iso(src.startTime), containers, ...this.cpuMem(src.cgroup) };
    const sample = this.deps.samples.latest(src.cgroup);
    const net = networkStats(sample);
    if (net) out.network = net;
    const volumes = [];
    for (const v of src.volumes ?? []) {
      const fs = await this.fsOf(v.path, v.path);
      if (fs) volumes.push({ ...fs, name: v.name, ...(v.pvcRef ? { pvcRef: v.pvcRef } : {}) });
    }
    if (volumes.length > 0) out.volume = volumes;
    const eph = await this.fsOf(this.deps.provider.nodeFsPath());
    if (eph) {
      const used = [...containers.flatMap((c) => [c.rootfs, c.logs]), ...volumes.filter((v) => !v.pvcRef)];
      eph.usedBytes = used.reduce((a, f) => a + (f?.usedBytes ?? 0), 0);
      eph.inodesUsed = used.reduce((a, f) => a + (f?.inodesUsed ?? 0), 0);
      out['ephemeral-storage'] = eph;
    }
    // The sum of the containers' own counts, as the kubelet's CRI stats provider (mergeProcessStats): the pod
    // cgroup's own cgroup.procs holds none of them.
    const counts = src.containers.map((c) => this.deps.samples.latest(c.cgroup)?.processes?.processes).filter((n): n is number => n !== undefined);
    if (counts.length > 0) out.process_stats = { process_count: counts.reduce((a, n) => a + n, 0) };
    else if (sample?.processes) out.process_stats = { process_count: sample.processes.processes };
    return out;
  }

  async node(): Promise<NodeStats> {
    const p = this.deps.provider;
    const capacity = this.deps.memoryCapacityBytes();
    const out: NodeStats = { nodeName: p.nodeName(), startTime: iso(p.nodeStartTime()), ...this.cpuMem('/', capacity) };
    if (out.memory) out.memory.availableBytes = Math.max(0, capacity - (out.memory.workingSetBytes ?? 0));
    const net = networkStats(this.deps.samples.latest('/'));
    if (net) out.network = net;
    const nodefs = await this.fsOf(p.nodeFsPath());
    if (nodefs) out.fs = nodefs;
    const imagefs = await this.fsOf(p.imageFsPath());
    if (imagefs) out.runtime = { imageFs: imagefs };
    out.systemContainers = (p.systemContainers?.() ?? []).map((s) => ({ name: s.name, startTime: iso(s.startTime), ...this.cpuMem(s.cgroup) }));
    out.rlimit = await this.rlimit();
    return out;
  }

  /** maxpid from kernel.pid_max (bounded by threads-max), curproc from /proc/loadavg's entity count. */
  private async rlimit(): Promise<NodeStats['rlimit']> {
    const fs = this.deps.fs;
    const out: NonNullable<NodeStats['rlimit']> = { time: iso(this.deps.clock.now()) };
    const pidMax = Number((await readOptional(fs, '/proc/sys/kernel/pid_max'))?.trim());
    const threadsMax = Number((await readOptional(fs, '/proc/sys/kernel/threads-max'))?.trim());
    const max = [pidMax, threadsMax].filter((n) => Number.isFinite(n) && n > 0);
    if (max.length > 0) out.maxpid = Math.min(...max);
    const la = parseLoadavg((await readOptional(fs, '/proc/loadavg')) ?? '');
    if (la) out.curproc = la.total;
    return out;
  }

  async build(): Promise<Summary> {
    const [node, pods] = await Promise.all([this.node(), Promise.all(this.deps.provider.pods().map((p) => this.pod(p)))]);
    return { node, pods };
  }

  /** ?only_cpu_and_memory=true: node and pods with cpu/memory (and containers') only. */
  cpuAndMemory(): Summary {
    const p = this.deps.provider;
    const capacity = this.deps.memoryCapacityBytes();
    const node: NodeStats = { nodeName: p.nodeName(), startTime: iso(p.nodeStartTime()), ...this.cpuMem('/', capacity) };
    if (node.memory) node.memory.availableBytes = Math.max(0, capacity - (node.memory.workingSetBytes ?? 0));
    const pods = p.pods().map((src) => ({
      podRef: src.ref,
      startTime: iso(src.startTime),
      ...this.cpuMem(src.cgroup),
      containers: src.containers.map((c) => ({ name: c.name, startTime: iso(c.startTime), ...this.cpuMem(c.cgroup) })),
    }));
    return { node, pods };
  }
}
