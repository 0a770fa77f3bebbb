import { readFileSync } from 'node:fs';
import { descendantsOf } from '../util/proc.ts';
import type { CgroupSample } from './cgroups.ts';

const CLK_TCK = 100;
const PAGE_SIZE = 4096;

/** Stats summed over a process tree from /proc, for when the container has no cgroup of its own. */
export function procTreeSample(rootPid: number): CgroupSample | undefined {
  const pids = [rootPid, ...descendantsOf(rootPid)];
  let ticks = 0;
  let rssPages = 0;
  let minflt = 0;
  let majflt = 0;
  let seen = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields after ')' start at field 3 (state): minflt=10, majflt=12, utime=14, stime=15, rss=24
      minflt += Number(f[7]);
      majflt += Number(f[9]);
      ticks += Number(f[11]) + Number(f[12]);
      rssPages += Number(f[21]);
      seen++;
    } catch {
      /* exited meanwhile */
    }
  }
  if (seen === 0) return undefined;
  const rss = rssPages * PAGE_SIZE;
  return {
    cpuUsageNs: (ticks * 1e9) / CLK_TCK,
    memoryUsageBytes: rss,
    workingSetBytes: rss,
    rssBytes: rss,
    pageFaults: minflt,
    majorPageFaults: majflt,
  };
}
