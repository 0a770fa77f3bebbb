/**
 * cgroup v2 statistics: cpu.stat (usage_usec, user_usec, system_usec, nr_periods, nr_throttled,
 * throttled_usec), memory.current, memory.stat (anon, file, inactive_file, file_mapped, pgfault,
 * pgmajfault), memory.events (max, oom, oom_kill), memory.peak, memory.max, memory.swap.current;
 * process/thread counts from cgroup.procs / cgroup.threads.
 */
import type { CgroupLayout, CgroupName, HostFs } from '../cm/types.ts';
import { cgroupDir, countOwn, pidsRecursive } from './cgroup-walk.ts';
import { KeyTable } from './parse.ts';
import { readFlat, readSingle, type FileBytes } from './stat-files.ts';
import type { CgroupStats, CgroupStatsReader, CpuSample, MemorySample } from './types.ts';

export const V2_NO_PER_CPU = { reason: 'PerCpuUnavailable', message: 'cgroup v2 keeps no per-CPU usage (cpu.stat has totals only)' } as const;

export class CgroupStatsV2 implements CgroupStatsReader {
  readonly driver = 'v2' as const;
  private readonly cpuStat = new KeyTable(['usage_usec', 'user_usec', 'system_usec', 'nr_periods', 'nr_throttled', 'throttled_usec']);
  private readonly stat = new KeyTable(['anon', 'file', 'inactive_file', 'file_mapped', 'pgfault', 'pgmajfault']);
  private readonly events = new KeyTable(['max', 'oom', 'oom_kill']);

  constructor(private readonly deps: { fs: HostFs; layout: CgroupLayout }) {}

  private dir(name: CgroupName): string | undefined {
    return cgroupDir(this.deps.layout.unified, name);
  }

  read(f: FileBytes, name: CgroupName, withProcesses: boolean): CgroupStats {
    const out: CgroupStats = {};
    const d = this.dir(name);
    if (d === undefined) return out;
    const cpu = this.cpu(f, d);
    if (cpu) out.cpu = cpu;
    const memory = this.memory(f, d);
    if (memory) out.memory = memory;
    const processes = withProcesses ? countOwn(f, d, name === '/' ? undefined : `${d}/pids.current`, 'cgroup.threads') : undefined;
    if (processes) out.processes = processes;
    return out;
  }

  private cpu(f: FileBytes, d: string): CpuSample | undefined {
    const s = readFlat(f, `${d}/cpu.stat`, this.cpuStat);
    const usage = s?.get('usage_usec');
    if (s === undefined || usage === undefined) return undefined;
    return {
      usageNanoseconds: usage * 1000,
      userNanoseconds: (s.get('user_usec') ?? 0) * 1000,
      systemNanoseconds: (s.get('system_usec') ?? 0) * 1000,
      periods: s.get('nr_periods') ?? 0,
      throttledPeriods: s.get('nr_throttled') ?? 0,
      throttledNanoseconds: (s.get('throttled_usec') ?? 0) * 1000,
      perCpuUnavailable: V2_NO_PER_CPU,
    };
  }

  private memory(f: FileBytes, d: string): MemorySample | undefined {
    const usage = readSingle(f, `${d}/memory.current`);
    if (usage === undefined) return undefined;
    const s = readFlat(f, `${d}/memory.stat`, this.stat);
    const inactiveFile = s?.get('inactive_file') ?? 0;
    const rssBytes = s?.get('anon') ?? 0;
    const cacheBytes = s?.get('file') ?? 0;
    const mappedFileBytes = s?.get('file_mapped') ?? 0;
    const pageFaults = s?.get('pgfault') ?? 0;
    const majorPageFaults = s?.get('pgmajfault') ?? 0;
    const ev = readFlat(f, `${d}/memory.events`, this.events);
    const failcnt = ev?.get('max') ?? 0;
    const oomEvents = ev?.get('oom') ?? 0;
    const oomKills = ev?.get('oom_kill') ?? 0;
    return {
      usageBytes: usage,
      workingSetBytes: Math.max(0, usage - inactiveFile),
      rssBytes,
      cacheBytes,
      mappedFileBytes,
      swapBytes: readSingle(f, `${d}/memory.swap.current`) ?? 0,
      maxUsageBytes: readSingle(f, `${d}/memory.peak`) ?? 0,
      failcnt,
      oomEvents,
      oomKills,
      pageFaults,
      majorPageFaults,
      limitBytes: readSingle(f, `${d}/memory.max`) ?? -1,
    };
  }

  pids(name: CgroupName, limit?: number): Promise<number[]> {
    const d = this.dir(name);
    return d === undefined ? Promise.resolve([]) : pidsRecursive(this.deps.fs, d, limit);
  }
}
