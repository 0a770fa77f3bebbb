import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CgroupSample } from '../linux/cgroups.ts';
import { procTreeSample } from '../linux/proc-stats.ts';
import type { ContainerRecord } from '../state/types.ts';
import { nowNs } from '../util/time.ts';
import type { RuntimeContext } from './context.ts';
import { containerDir } from './container-ops.ts';

export interface ContainerSample extends CgroupSample {
  timestamp: number;
  /** CPU rate since the previous sample of this container, when there was one. */
  usageNanoCores?: number;
  source: 'cgroup' | 'proc';
  writableBytes: number;
  writableInodes: number;
  writableMount: string;
}

/** A writable layer's usage as last walked (Date.now() ms). */
interface WritableUsage {
  bytes: number;
  inodes: number;
  at: number;
}

/**
 * Samples containers from their cgroups (or /proc) and keeps the previous CPU reading for rates. The
 * writable layer (the container's upper directory) is walked like du (allocated blocks) at most once per
 * `writableTtlMs`: a stats call answers from the cache and a stale entry is re-walked in the background,
 * so a scrape never pays for the walk (the first sample of a container walks it, while it is still small).
 */
export class StatsSampler {
  private readonly last = new Map<string, { ts: number; cpu: number }>();
  private readonly writable = new Map<string, WritableUsage>();
  private readonly walking = new Set<string>();

  constructor(
    private readonly ctx: RuntimeContext,
    private readonly writableTtlMs = 10_000,
  ) {}

  private writableUsage(id: string, upper: string): WritableUsage {
    const now = Date.now();
    let u = this.writable.get(id);
    if (!u) {
      u = { ...dirUsage(upper, { allocated: true }), at: now };
      this.writable.set(id, u);
    } else if (now - u.at >= this.writableTtlMs && !this.walking.has(id)) {
      this.walking.add(id);
      setImmediate(() => {
        this.walking.delete(id);
        if (this.writable.has(id)) this.writable.set(id, { ...dirUsage(upper, { allocated: true }), at: Date.now() });
      });
    }
    return u;
  }

  sample(rec: ContainerRecord): ContainerSample | undefined {
    const running = rec.state === 'CONTAINER_RUNNING';
    const fromCg = running && this.ctx.cgroups ? this.ctx.cgroups.sample(rec.cgroupPath) : undefined;
    const base = fromCg ?? (running && rec.pid ? procTreeSample(rec.pid) : undefined);
    const ts = nowNs();
    const upper = join(containerDir(this.ctx, rec.id), 'upper');
    const usage = this.writableUsage(rec.id, upper);
    const zero: CgroupSample = { cpuUsageNs: 0, memoryUsageBytes: 0, workingSetBytes: 0, rssBytes: 0, pageFaults: 0, majorPageFaults: 0 };
    const s = base ?? zero;
    const prev = this.last.get(rec.id);
    let usageNanoCores: number | undefined;
    if (prev && ts > prev.ts && s.cpuUsageNs >= prev.cpu) usageNanoCores = Math.round(((s.cpuUsageNs - prev.cpu) * 1e9) / (ts - prev.ts));
    if (base) this.last.set(rec.id, { ts, cpu: s.cpuUsageNs });
    else this.last.delete(rec.id);
    return {
      ...s, timestamp: ts, source: fromCg ? 'cgroup' : 'proc', writableBytes: usage.bytes, writableInodes: usage.inodes,
      writableMount: upper, ...(usageNanoCores !== undefined ? { usageNanoCores } : {}),
    };
  }

  forget(id: string): void {
    this.last.delete(id);
    this.writable.delete(id);
  }
}

/**
 * Bytes and inodes under a directory (the container's writable layer). `allocated` counts allocated blocks
 * (du) instead of apparent sizes; `limit` caps the inodes visited.
 */
export function dirUsage(dir: string, opts: { allocated?: boolean; limit?: number } = {}): { bytes: number; inodes: number } {
  const limit = opts.limit ?? 100_000;
  let bytes = 0;
  let inodes = 0;
  const stack = [dir];
  while (stack.length > 0 && inodes < limit) {
    const d = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const n of names) {
      try {
        const st = lstatSync(join(d, n));
        inodes++;
        bytes += opts.allocated ? st.blocks * 512 : st.size;
        if (st.isDirectory()) stack.push(join(d, n));
      } catch {
        /* raced */
      }
    }
  }
  return { bytes, inodes };
}
