/** Counting over a cgroup directory and its descendants. */
import { readOptional, type HostFs } from '../cm/types.ts';
import { readLineCount, readSingle, type FileBytes } from './stat-files.ts';

/**
 * A cgroup's process and thread counts as cAdvisor takes them (processStatsFromProcs): the processes are the lines of
 * the cgroup's own `cgroup.procs` (not its descendants': a pod's or a QoS class's count is its own, usually 0), the
 * threads `pids.current` (hierarchical, one read) where the pids controller is, else the lines of the thread file.
 * No walk of the subtree: at 110 pods the QoS and kubepods cgroups' walks read ≈ 1000 files a sample.
 */
export function countOwn(f: FileBytes, procsDir: string, pidsCurrent: string | undefined, threadsFile: string): { processes: number; threads: number } | undefined {
  const processes = readLineCount(f, `${procsDir}/cgroup.procs`);
  if (processes === undefined) return undefined;
  const current = pidsCurrent === undefined ? undefined : readSingle(f, pidsCurrent);
  return { processes, threads: current ?? readLineCount(f, `${procsDir}/${threadsFile}`) ?? 0 };
}

/** Pids from cgroup.procs of dir and its descendants (in order, first one first), at most `limit`. */
export async function pidsRecursive(fs: HostFs, dir: string, limit = Number.POSITIVE_INFINITY): Promise<number[]> {
  const out: number[] = [];
  for (const l of ((await readOptional(fs, `${dir}/cgroup.procs`)) ?? '').split('\n')) {
    const pid = Number(l.trim());
    if (l.trim() !== '' && Number.isInteger(pid)) out.push(pid);
  }
  // A pod's network counters need one pid of it: no walk of its containers once that is found.
  if (out.length >= limit) return out.slice(0, limit);
  let ents;
  try {
    ents = await fs.readdir(dir);
  } catch {
    return out;
  }
  for (const e of ents) {
    if (out.length >= limit) break;
    if (e.dir) out.push(...(await pidsRecursive(fs, `${dir}/${e.name}`, limit - out.length)));
  }
  return out;
}

export function cgroupDir(mount: string | undefined, name: string): string | undefined {
  if (mount === undefined) return undefined;
  return name === '/' ? mount : `${mount}${name}`;
}
