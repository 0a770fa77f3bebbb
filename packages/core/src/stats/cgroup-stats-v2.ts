/**
 * cgroup v2 statistics: cpu.stat (usage_usec, user_usec, system_usec, nr_periods, nr_throttled,
 * throttled_usec), memory.current, memory.stat (anon, file, inactive_file, file_mapped, pgfault,
 * pgmajfault), memory.events (max, oom, oom_kill), memory.peak, memory.max, memory.swap.current;
 * process/thread counts from cgroup.procs / cgroup.threads.
 */
import { readOptional, type CgroupLayout, type CgroupName, type HostFs } from '../cm/types.ts';
import { cgroupDir, countOwn, pidsRecursive } from './cgroup-walk.ts';
import { parseFlatKeyed, parseSingle } from './parse.ts';
import type { CgroupStatsReader, CpuSample, MemorySample, ProcessSample } from './types.ts';

export const V2_NO_PER_CPU = { reason: 'PerCpuUnavailable', message: 'cgroup v2 keeps no per-CPU usage (cpu.stat has totals only)' } as const;

export class CgroupStatsV2 implements CgroupStatsReader {
  readonly driver = 'v2' as const;
  constructor(private readonly deps: { fs: HostFs; layout: CgroupLayout }) {}

  private dir(name: CgroupName): string | undefined {
    return cgroupDir(this.deps.layout.unified, name);
  }

  private read(name: CgroupName, file: string): Promise<string | undefined> {
    const d = this.dir(name);
    return d === undefined ? Promise.resolve(undefined) : readOptional(this.deps.fs, `${d}/${file}`);
  }

  async cpu(name: CgroupName): Promise<CpuSample | undefined> {
    const text = await this.read(name, 'cpu.stat');
    if (text === undefined) return undefined;
    const s = parseFlatKeyed(text);
    if (s.usage_usec === undefined) return undefined;
    return {
      usageNanoseconds: s.usage_usec * 1000,
      userNanoseconds: (s.user_usec ?? 0) * 1000,
      systemNanoseconds: (s.system_usec ?? 0) * 1000,
      periods: s.nr_periods ?? 0,
      throttledPeriods: s.nr_throttled ?? 0,
      throttledNanoseconds: (s.throttled_usec ?? 0) * 1000,
      perCpuUnavailable: V2_NO_PER_CPU,
    };
  }

  async memory(name: CgroupName): Promise<MemorySample | undefined> {
    const usage = parseSingle(await this.read(name, 'memory.current'));
    if (usage === undefined) return undefined;
    const s = parseFlatKeyed(await this.read(name, 'memory.stat'));
    const ev = parseFlatKeyed(await this.read(name, 'memory.events'));
    return {
      usageBytes: usage,
      workingSetBytes: Math.max(0, usage - (s.inactive_file ?? 0)),
      rssBytes: s.anon ?? 0,
      cacheBytes: s.file ?? 0,
      mappedFileBytes: s.file_mapped ?? 0,
      swapBytes: parseSingle(await this.read(name, 'memory.swap.current')) ?? 0,
      maxUsageBytes: parseSingle(await this.read(name, 'memory.peak')) ?? 0,
      failcnt: ev.max ?? 0,
      oomEvents: ev.oom ?? 0,
      oomKills: ev.oom_kill ?? 0,
      pageFaults: s.pgfault ?? 0,
      majorPageFaults: s.pgmajfault ?? 0,
      limitBytes: parseSingle(await this.read(name, 'memory.max')) ?? -1,
    };
  }

  async processes(name: CgroupName): Promise<ProcessSample | undefined> {
    const d = this.dir(name);
    if (d === undefined) return undefined;
    return countOwn(this.deps.fs, d, name === '/' ? undefined : `${d}/pids.current`, 'cgroup.threads');
  }

  pids(name: CgroupName, limit?: number): Promise<number[]> {
    const d = this.dir(name);
    return d === undefined ? Promise.resolve([]) : pidsRecursive(this.deps.fs, d, limit);
  }
}
