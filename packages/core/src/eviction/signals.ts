/**
 * Signal observations from the Summary API, as the kubelet defines them (makeSignalObservations):
 * memory.available = node memory availableBytes (capacity = available + workingSet); nodefs.* from node.fs;
 * imagefs.* from node.runtime.imageFs; pid.available = rlimit.maxpid − rlimit.curproc. Plus the pure threshold
 * helpers the manager loop composes.
 */
import type { PodStats, Summary } from '../stats/summary-types.ts';
import { thresholdQuantity } from './thresholds.ts';
import type { Observation, Observations, PodUsage, PressureCondition, Signal, Threshold } from './types.ts';

const ms = (iso: string | undefined, fallback: number): number => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : fallback;
};

export function makeObservations(summary: Summary, now: number): Observations {
  const out: Observations = {};
  const n = summary.node;
  const mem = n.memory;
  if (mem?.availableBytes !== undefined && mem.workingSetBytes !== undefined) {
    out['memory.available'] = { available: mem.availableBytes, capacity: mem.availableBytes + mem.workingSetBytes, time: ms(mem.time, now) };
  }
  const fs = n.fs;
  if (fs?.availableBytes !== undefined && fs.capacityBytes !== undefined) {
    out['nodefs.available'] = { available: fs.availableBytes, capacity: fs.capacityBytes, time: ms(fs.time, now) };
  }
  if (fs?.inodesFree !== undefined && fs.inodes !== undefined) {
    out['nodefs.inodesFree'] = { available: fs.inodesFree, capacity: fs.inodes, time: ms(fs.time, now) };
  }
  const img = n.runtime?.imageFs;
  if (img?.availableBytes !== undefined && img.capacityBytes !== undefined) {
    out['imagefs.available'] = { available: img.availableBytes, capacity: img.capacityBytes, time: ms(img.time, now) };
  }
  if (img?.inodesFree !== undefined && img.inodes !== undefined) {
    out['imagefs.inodesFree'] = { available: img.inodesFree, capacity: img.inodes, time: ms(img.time, now) };
  }
  const rl = n.rlimit;
  if (rl?.maxpid !== undefined && rl.curproc !== undefined) {
    out['pid.available'] = { available: rl.maxpid - rl.curproc, capacity: rl.maxpid, time: ms(rl.time, now) };
  }
  return out;
}

/** Per-pod usage from the Summary, keyed by pod UID. */
export function podUsageByUid(summary: Summary, signal: Signal): Map<string, PodUsage> {
  const out = new Map<string, PodUsage>();
  for (const p of summary.pods) out.set(p.podRef.uid, podUsage(p, signal));
  return out;
}

function podUsage(p: PodStats, signal: Signal): PodUsage {
  const u: PodUsage = {};
  const ws = p.memory?.workingSetBytes ?? sum(p.containers.map((c) => c.memory?.workingSetBytes));
  if (ws !== undefined) u.memoryWorkingSetBytes = ws;
  const imagefsOnly = signal.startsWith('imagefs');
  const disk = imagefsOnly
    ? sum(p.containers.map((c) => c.rootfs?.usedBytes))
    : (p['ephemeral-storage']?.usedBytes ?? sum(p.containers.flatMap((c) => [c.rootfs?.usedBytes, c.logs?.usedBytes])));
  if (disk !== undefined) u.diskBytes = disk;
  const inodes = imagefsOnly
    ? sum(p.containers.map((c) => c.rootfs?.inodesUsed))
    : (p['ephemeral-storage']?.inodesUsed ?? sum(p.containers.flatMap((c) => [c.rootfs?.inodesUsed, c.logs?.inodesUsed])));
  if (inodes !== undefined) u.inodes = inodes;
  if (p.process_stats?.process_count !== undefined) u.processes = p.process_stats.process_count;
  return u;
}

function sum(xs: Array<number | undefined>): number | undefined {
  const present = xs.filter((x): x is number => x !== undefined);
  return present.length === 0 ? undefined : present.reduce((a, b) => a + b, 0);
}

/** Thresholds whose signal is below them; with enforceMinReclaim the bar is threshold + minimum reclaim. */
export function thresholdsMet(thresholds: Threshold[], obs: Observations, enforceMinReclaim: boolean): Threshold[] {
  return thresholds.filter((t) => {
    const o = obs[t.signal];
    if (!o) return false;
    let q = thresholdQuantity(t.value, o.capacity);
    if (enforceMinReclaim && t.minReclaim) q += thresholdQuantity(t.minReclaim, o.capacity);
    return o.available < q;
  });
}

export const thresholdKey = (t: Threshold): string => `${t.kind}:${t.signal}`;

export function mergeThresholds(a: Threshold[], b: Threshold[]): Threshold[] {
  const seen = new Set(a.map(thresholdKey));
  return [...a, ...b.filter((t) => !seen.has(thresholdKey(t)))];
}

export function signalCondition(signal: Signal): PressureCondition {
  if (signal === 'memory.available') return 'MemoryPressure';
  if (signal === 'pid.available') return 'PIDPressure';
  return 'DiskPressure';
}

/** The resource a signal reclaims (the "low on resource" word of the eviction message). */
export function signalResource(signal: Signal): string {
  switch (signal) {
    case 'memory.available':
      return 'memory';
    case 'nodefs.available':
    case 'imagefs.available':
      return 'ephemeral-storage';
    case 'nodefs.inodesFree':
    case 'imagefs.inodesFree':
      return 'inodes';
    case 'pid.available':
      return 'pids';
  }
}

/** Memory first, then disk, then pids (byEvictionPriority: memory first, signals without node reclaim last). */
export function byEvictionPriority(a: Threshold, b: Threshold): number {
  const rank = (t: Threshold) => (t.signal === 'memory.available' ? 0 : t.signal === 'pid.available' ? 2 : 1);
  return rank(a) - rank(b);
}

/** Whether the observation behind the threshold is newer than the one seen last pass (thresholdsUpdatedStats). */
export function statsUpdated(t: Threshold, obs: Observations, last: Observations): boolean {
  const o: Observation | undefined = obs[t.signal];
  const l = last[t.signal];
  return !!o && (!l || o.time > l.time);
}
