/** /proc readers through the injected fs: stat, meminfo, loadavg, and node memory derived from meminfo. */
import { readOptional, type HostFs } from '../cm/types.ts';
import { parseLoadavg, parseMeminfo, parseProcStat, type LoadAvg, type ProcStat } from './parse.ts';
import type { MemorySample } from './types.ts';

export async function readProcStat(fs: HostFs, procRoot = '/proc'): Promise<ProcStat | undefined> {
  const t = await readOptional(fs, `${procRoot}/stat`);
  return t === undefined ? undefined : parseProcStat(t);
}

export async function readMeminfo(fs: HostFs, procRoot = '/proc'): Promise<Record<string, number> | undefined> {
  const t = await readOptional(fs, `${procRoot}/meminfo`);
  return t === undefined ? undefined : parseMeminfo(t);
}

export async function readLoadavg(fs: HostFs, procRoot = '/proc'): Promise<LoadAvg | undefined> {
  const t = await readOptional(fs, `${procRoot}/loadavg`);
  return t === undefined ? undefined : parseLoadavg(t);
}

/**
 * Node memory when the root cgroup has no memory files (cgroup v2): usage = MemTotal − MemFree,
 * working set = usage − Inactive(file), rss = AnonPages, cache = Cached.
 */
export function memoryFromMeminfo(m: Record<string, number>): MemorySample | undefined {
  const total = m.MemTotal;
  const free = m.MemFree;
  if (total === undefined || free === undefined) return undefined;
  const usage = total - free;
  return {
    usageBytes: usage,
    workingSetBytes: Math.max(0, usage - (m['Inactive(file)'] ?? 0)),
    rssBytes: m.AnonPages ?? 0,
    cacheBytes: m.Cached ?? 0,
    mappedFileBytes: m.Mapped ?? 0,
    swapBytes: (m.SwapTotal ?? 0) - (m.SwapFree ?? 0),
    maxUsageBytes: 0,
    failcnt: 0,
    oomEvents: 0,
    oomKills: 0,
    pageFaults: 0,
    majorPageFaults: 0,
    limitBytes: -1,
  };
}
