/**
 * cgroup v1 statistics: cpuacct.usage, cpuacct.stat (USER_HZ ticks), cpu.stat (CFS throttling),
 * memory.usage_in_bytes, memory.stat (total_*), memory.failcnt, memory.max_usage_in_bytes,
 * memory.limit_in_bytes, memory.oom_control oom_kill; the cgroup's own process count (cgroup.procs) and its
 * threads (pids.current, else tasks), as cAdvisor.
 */
import type { CgroupLayout, CgroupName, HostFs } from '../cm/types.ts';
import { cgroupDir, countOwn, pidsRecursive } from './cgroup-walk.ts';
import { KeyTable } from './parse.ts';
import { readFlat, readList, readSingle, type FileBytes } from './stat-files.ts';
import type { CgroupStats, CgroupStatsReader, CpuSample, MemorySample } from './types.ts';

/** USER_HZ is 100 on every Linux ABI the kubelet runs on. */
export const USER_HZ = 100;
const NS_PER_TICK = 1e9 / USER_HZ;

const MEMORY_STAT_KEYS = [
  'total_inactive_file', 'inactive_file', 'total_rss', 'rss', 'total_cache', 'cache', 'total_mapped_file', 'mapped_file',
  'total_swap', 'swap', 'total_pgfault', 'pgfault', 'total_pgmajfault', 'pgmajfault',
] as const;
type MemoryStatKey = (typeof MEMORY_STAT_KEYS)[number];

const NO_PER_CPU = { reason: 'PerCpuUnavailable', message: 'cpuacct.usage_percpu missing or unreadable' } as const;

export class CgroupStatsV1 implements CgroupStatsReader {
  readonly driver = 'v1' as const;
  // The keys taken from each flat file (memory.stat has ≈ 45 lines; 14 of them are read: the total_* and the
  // cgroup's own, for a root without hierarchy totals).
  private readonly acct = new KeyTable(['user', 'system']);
  private readonly cfs = new KeyTable(['nr_periods', 'nr_throttled', 'throttled_time']);
  private readonly stat = new KeyTable(MEMORY_STAT_KEYS);
  private readonly oom = new KeyTable(['oom_kill']);

  constructor(private readonly deps: { fs: HostFs; layout: CgroupLayout }) {}

  private dir(controller: string, name: CgroupName): string | undefined {
    return cgroupDir(this.deps.layout.v1[controller], name);
  }

  read(f: FileBytes, name: CgroupName, withProcesses: boolean): CgroupStats {
    const out: CgroupStats = {};
    const cpu = this.cpu(f, name);
    if (cpu) out.cpu = cpu;
    const memory = this.memory(f, name);
    if (memory) out.memory = memory;
    const processes = withProcesses ? this.processes(f, name) : undefined;
    if (processes) out.processes = processes;
    return out;
  }

  private cpu(f: FileBytes, name: CgroupName): CpuSample | undefined {
    const d = this.dir('cpuacct', name);
    const usage = d === undefined ? undefined : readSingle(f, `${d}/cpuacct.usage`);
    if (usage === undefined) return undefined;
    const stat = readFlat(f, `${d}/cpuacct.stat`, this.acct);
    const user = stat?.get('user') ?? 0;
    const system = stat?.get('system') ?? 0;
    const c = this.dir('cpu', name);
    const cfs = c === undefined ? undefined : readFlat(f, `${c}/cpu.stat`, this.cfs);
    const perCpu = readList(f, `${d}/cpuacct.usage_percpu`);
    return {
      ...(perCpu ? { perCpuNanoseconds: perCpu } : { perCpuUnavailable: NO_PER_CPU }),
      usageNanoseconds: usage,
      userNanoseconds: user * NS_PER_TICK,
      systemNanoseconds: system * NS_PER_TICK,
      periods: cfs?.get('nr_periods') ?? 0,
      throttledPeriods: cfs?.get('nr_throttled') ?? 0,
      throttledNanoseconds: cfs?.get('throttled_time') ?? 0,
    };
  }

  private memory(f: FileBytes, name: CgroupName): MemorySample | undefined {
    const d = this.dir('memory', name);
    const usage = d === undefined ? undefined : readSingle(f, `${d}/memory.usage_in_bytes`);
    if (usage === undefined) return undefined;
    const s = readFlat(f, `${d}/memory.stat`, this.stat);
    const v = (total: MemoryStatKey, own: MemoryStatKey) => s?.get(total) ?? s?.get(own) ?? 0;
    const inactiveFile = v('total_inactive_file', 'inactive_file');
    const rssBytes = v('total_rss', 'rss');
    const cacheBytes = v('total_cache', 'cache');
    const mappedFileBytes = v('total_mapped_file', 'mapped_file');
    const swapBytes = v('total_swap', 'swap');
    const pageFaults = v('total_pgfault', 'pgfault');
    const majorPageFaults = v('total_pgmajfault', 'pgmajfault');
    const oomKills = readFlat(f, `${d}/memory.oom_control`, this.oom)?.get('oom_kill') ?? 0;
    const limit = readSingle(f, `${d}/memory.limit_in_bytes`) ?? -1;
    return {
      usageBytes: usage,
      workingSetBytes: Math.max(0, usage - inactiveFile),
      rssBytes,
      cacheBytes,
      mappedFileBytes,
      swapBytes,
      maxUsageBytes: readSingle(f, `${d}/memory.max_usage_in_bytes`) ?? 0,
      failcnt: readSingle(f, `${d}/memory.failcnt`) ?? 0,
      oomEvents: oomKills,
      oomKills,
      pageFaults,
      majorPageFaults,
      // The kernel's "unlimited" is PAGE_COUNTER_MAX pages (9223372036854771712 with 4 KiB pages).
      limitBytes: limit >= 2 ** 62 ? -1 : limit,
    };
  }

  private processes(f: FileBytes, name: CgroupName): CgroupStats['processes'] {
    const d = this.dir('pids', name) ?? this.dir('cpu', name) ?? this.dir('memory', name);
    if (d === undefined) return undefined;
    const pids = this.dir('pids', name);
    // The root cgroup of the pids hierarchy has no pids.current.
    return countOwn(f, d, pids === undefined || name === '/' ? undefined : `${pids}/pids.current`, 'tasks');
  }

  pids(name: CgroupName, limit?: number): Promise<number[]> {
    const d = this.dir('pids', name) ?? this.dir('memory', name) ?? this.dir('cpu', name);
    return d === undefined ? Promise.resolve([]) : pidsRecursive(this.deps.fs, d, limit);
  }
}
