/** Counting over a cgroup directory and its descendants. */
import { readOptional, type HostFs } from '../cm/types.ts';
import { countLines } from './parse.ts';

/** Sums countLines(file) over dir and all descendant directories; undefined when dir is absent. */
export async function countRecursive(fs: HostFs, dir: string, files: string[]): Promise<number[] | undefined> {
  let ents;
  try {
    ents = await fs.readdir(dir);
  } catch {
    return undefined;
  }
  const totals: number[] = [];
  for (const [i, f] of files.entries()) totals[i] = countLines(await readOptional(fs, `${dir}/${f}`));
  for (const e of ents) {
    if (!e.dir) continue;
    const sub = await countRecursive(fs, `${dir}/${e.name}`, files);
    sub?.forEach((n, i) => (totals[i] = (totals[i] ?? 0) + n));
  }
  return totals;
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
