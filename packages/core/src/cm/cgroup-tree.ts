/** Directory-level helpers shared by the v1 and v2 managers: walk, remove bottom-up, collect pids. */
import { errCode, readOptional, type CgroupResult, type HostFs } from './types.ts';

/** Removes a cgroup directory and its descendants, deepest first. Absent = ok. */
export async function removeTree(fs: HostFs, dir: string): Promise<void> {
  let ents;
  try {
    ents = await fs.readdir(dir);
  } catch (e) {
    if (errCode(e) === 'ENOENT') return;
    throw e;
  }
  for (const e of ents) if (e.dir) await removeTree(fs, `${dir}/${e.name}`);
  try {
    await fs.rmdir(dir);
  } catch (e) {
    if (errCode(e) !== 'ENOENT') throw e;
  }
}

/** Pids listed in cgroup.procs of dir and every descendant. */
export async function collectPids(fs: HostFs, dir: string): Promise<number[]> {
  const out: number[] = [];
  const text = await readOptional(fs, `${dir}/cgroup.procs`);
  for (const l of (text ?? '').split('\n')) {
    const n = Number(l.trim());
    if (l.trim() !== '' && Number.isInteger(n)) out.push(n);
  }
  let ents;
  try {
    ents = await fs.readdir(dir);
  } catch {
    return out;
  }
  for (const e of ents) if (e.dir) out.push(...(await collectPids(fs, `${dir}/${e.name}`)));
  return out;
}

export async function childDirs(fs: HostFs, dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).filter((e) => e.dir).map((e) => e.name);
  } catch {
    return [];
  }
}

export function failure(reason: string, what: string, e: unknown): CgroupResult {
  return { ok: false, reason, message: `${what}: ${(e as Error)?.message ?? String(e)}` };
}

/** Parses an integer control file value; 'max' and v1's "unlimited" page-rounded maximum → -1. */
export function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.trim().split(/\s+/)[0] ?? '';
  if (t === 'max') return -1;
  const n = Number(t);
  if (!Number.isFinite(n) || t === '') return undefined;
  return n >= 2 ** 62 ? -1 : n;
}
