/**
 * cgroup v1 statistics: cpuacct.usage, cpuacct.stat (USER_HZ ticks), cpu.stat (CFS throttling),
 * memory.usage_in_bytes, memory.stat (total_*), memory.failcnt, memory.max_usage_in_bytes,
 * memory.limit_in_bytes, memory.oom_control oom_kill; the cgroup's own process count (cgroup.procs) and its
 * threads (pids.current, else tasks), as cAdvisor.
 */
import { readOptional, type CgroupLayout, type CgroupName, type HostFs } from '../cm/types.ts';
import { cgroupDir, countOwn, pidsRecursive } from './cgroup-walk.ts';
import { parseFlatKeyed, parseList, parseSingle } from './parse.ts';
import type { CgroupStatsReader, CpuSample, MemorySample, ProcessSample } from './types.ts';

/** USER_HZ is 100 on every Linux ABI the kubelet runs on. */
export const USER_HZ = 100;
const NS_PER_TICK = 1e9 / USER_HZ;

export class CgroupStatsV1 implements CgroupStatsReader {
  readonly driver = 'v1' as const;
  constructor(private readonly deps: { fs: HostFs; layout: CgroupLayout }) {}

  private dir(controller: string, name: CgroupName): string | undefined {
    return cgroupDir(this.deps.layout.v1[controller], name);
  }

  private read(controller: string, name: CgroupName, file: string): Promise<string | undefined> {
    const d = this.dir(controller, name);
    return d === undefined ? Promise.resolve(undefined) : readOptional(this.deps.fs, `${d}/${file}`);
  }

  async cpu(name: CgroupName): Promise<CpuSample | undefined> {
    const usage = parseSingle(await this.read('cpuacct', name, 'cpuacct.usage'));
    if (usage === undefined) return undefined;
    const stat = parseFlatKeyed(await this.read('cpuacct', name, 'cpuacct.stat'));
    const cfs = parseFlatKeyed(await this.read('cpu', name, 'cpu.stat'));
    const perCpu = parseList(await this.read('cpuacct', name, 'cpuacct.usage_percpu'));
    return {
      ...(perCpu ? { perCpuNanoseconds: perCpu } : { perCpuUnavailable: { reason: 'PerCpuUnavailable', message: 'cpuacct.usage_percpu missing or unreadable' } }),
      usageNanoseconds: usage,
      userNanoseconds: (stat.user ?? 0) * NS_PER_TICK,
      systemNanoseconds: (stat.system ?? 0) * NS_PER_TICK,
      periods: cfs.nr_periods ?? 0,
      throttledPeriods: cfs.nr_throttled ?? 0,
      throttledNanoseconds: cfs.throttled_time ?? 0,
    };
  }

  async memory(name: CgroupName): Promise<MemorySample | undefined> {
    const usage = parseSingle(await this.read('memory', name, 'memory.usage_in_bytes'));
    if (usage === undefined) return undefined;
    const s = parseFlatKeyed(await this.read('memory', name, 'memory.stat'));
    const oom = parseFlatKeyed(await this.read('memory', name, 'memory.oom_control'));
    const limit = parseSingle(await this.read('memory', name, 'memory.limit_in_bytes')) ?? -1;
    const inactiveFile = s.total_inactive_file ?? s.inactive_file ?? 0;
    const oomKills = oom.oom_kill ?? 0;
    return {
      usageBytes: usage,
      workingSetBytes: Math.max(0, usage - inactiveFile),
      rssBytes: s.total_rss ?? s.rss ?? 0,
      cacheBytes: s.total_cache ?? s.cache ?? 0,
      mappedFileBytes: s.total_mapped_file ?? s.mapped_file ?? 0,
      swapBytes: s.total_swap ?? s.swap ?? 0,
      maxUsageBytes: parseSingle(await this.read('memory', name, 'memory.max_usage_in_bytes')) ?? 0,
      failcnt: parseSingle(await this.read('memory', name, 'memory.failcnt')) ?? 0,
      oomEvents: oomKills,
      oomKills,
      pageFaults: s.total_pgfault ?? s.pgfault ?? 0,
      majorPageFaults: s.total_pgmajfault ?? s.pgmajfault ?? 0,
      limitBytes: limit >= 2 ** 62 ? -1 : limit,
    };
  }

  async processes(name: CgroupName): Promise<ProcessSample | undefined> {
    const d = this.dir('pids', name) ?? this.dir('cpu', name) ?? this.dir('memory', name);
    if (d === undefined) return undefined;
    const pids = this.dir('pids', name);
    // The root cgroup of the pids hierarchy has no pids.current.
    return countOwn(this.deps.fs, d, pids === undefined || name === '/' ? undefined : `${pids}/pids.current`, 'tasks');
  }

  pids(name: CgroupName, limit?: number): Promise<number[]> {
    const d = this.dir('pids', name) ?? this.dir('memory', name) ?? this.dir('cpu', name);
    return d === undefined ? Promise.resolve([]) : pidsRecursive(this.deps.fs, d, limit);
  }
}
