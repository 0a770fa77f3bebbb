/**
 * The kubelet's atomic writer for configMap / secret / downwardAPI / projected volumes: a payload is written
 * into a fresh timestamped directory (`..2026_11_22_06_40_00.123456789`), the `..data` symlink is swapped to it
 * with a rename (atomic for readers), every top-level user-visible name is a symlink into `..data/`, and then
 * the names and the directory of the previous payload are removed. An unchanged payload writes nothing.
 */
import { chmod, lstat, mkdir, readdir, readFile, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { randomInt } from 'node:crypto';
import { within } from './container-mounts.ts';

export interface FileProjection {
  data: Buffer;
  /** File mode (e.g. 0o644). */
  mode: number;
}

export type Payload = Map<string, FileProjection>;

export type WriteResult = { ok: true; changed: boolean } | { ok: false; message: string };

export const DATA_DIR = '..data';
const DATA_TMP = '..data_tmp';

/** The kubelet's path checks for a payload key: relative, no `..` element, not starting with `..`. */
export function validatePayloadPath(p: string): string | undefined {
  if (p === '') return 'invalid path: must not be empty';
  if (p.length > 4096) return `invalid path: must be less than or equal to 4096 characters`;
  if (posix.isAbsolute(p)) return `invalid path: must be relative path: ${p}`;
  if (p.split('/').includes('..')) return `invalid path: must not contain '..': ${p}`;
  if (p.startsWith('..')) return `invalid path: must not start with '..': ${p}`;
  return undefined;
}

/** The first payload key that is not a safe file name below `target` (checked before anything is made). */
export function payloadPathError(target: string, payload: Payload): string | undefined {
  const data = join(target, DATA_DIR);
  for (const p of payload.keys()) {
    const bad = validatePayloadPath(p);
    if (bad) return bad;
    // Defense in depth: the normalised file path stays strictly below the data dir.
    const file = join(data, p);
    if (file === data || !within(data, file)) return `invalid path: ${p} is outside the volume`;
  }
  return undefined;
}

function tsDirName(now: number): string {
  const d = new Date(now);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${d.getUTCFullYear()}_${p(d.getUTCMonth() + 1)}_${p(d.getUTCDate())}_${p(d.getUTCHours())}_${p(d.getUTCMinutes())}_${p(d.getUTCSeconds())}`;
  return `..${stamp}.${p(randomInt(1_000_000_000), 9)}`;
}

async function exists(p: string): Promise<boolean> {
  return lstat(p).then(() => true, () => false);
}

/** Files under `dir` as relative paths (following no symlinks). */
async function walk(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await walk(dir, rel)));
    else out.push(rel);
  }
  return out;
}

/** What happens to a payload between writing it and the `..data` swap: the kubelet's setPerms (fsGroup ownership). */
export interface PayloadPerms {
  /** Runs over the whole volume dir (the new timestamped dir included) before the swap. */
  apply(target: string): Promise<void>;
  /** A payload file's mode once `apply` ran (an unchanged payload is not rewritten). */
  fileMode(mode: number): number;
}

async function sameAsCurrent(target: string, payload: Payload, fileMode: (m: number) => number): Promise<boolean> {
  const data = join(target, DATA_DIR);
  if (!(await exists(data))) return false;
  const files = await walk(data).catch(() => undefined);
  if (!files || files.length !== payload.size) return false;
  for (const f of files) {
    const want = payload.get(f);
    if (!want) return false;
    const [got, st] = await Promise.all([readFile(join(data, f)), stat(join(data, f))]);
    if (!got.equals(want.data) || (st.mode & 0o7777) !== fileMode(want.mode)) return false;
  }
  return true;
}

/** Top-level names of a payload (what the user sees in the volume). */
function topLevel(payload: Payload): Set<string> {
  return new Set([...payload.keys()].map((p) => p.split('/')[0] ?? p));
}

async function oldTopLevel(target: string): Promise<{ names: Set<string>; dir: string | undefined }> {
  const dir = await readlink(join(target, DATA_DIR)).catch(() => undefined);
  if (!dir) return { names: new Set(), dir: undefined };
  const files = await walk(join(target, dir)).catch(() => []);
  return { names: new Set(files.map((p) => p.split('/')[0] ?? p)), dir };
}

export async function writePayload(target: string, payload: Payload, now: number, perms?: PayloadPerms): Promise<WriteResult> {
  const bad = payloadPathError(target, payload);
  if (bad) return { ok: false, message: bad };
  await mkdir(target, { recursive: true });
  if (await sameAsCurrent(target, payload, perms?.fileMode ?? ((m) => m))) return { ok: true, changed: false };
  const old = await oldTopLevel(target);
  const ts = tsDirName(now);
  const tsPath = join(target, ts);
  await mkdir(tsPath, { mode: 0o755 });
  await chmod(tsPath, 0o755);
  for (const [p, f] of payload) {
    const file = join(tsPath, p);
    await mkdir(dirname(file), { recursive: true, mode: 0o755 });
    await writeFile(file, f.data);
    await chmod(file, f.mode);
  }
  if (perms) await perms.apply(target);
  await rm(join(target, DATA_TMP), { force: true });
  await symlink(ts, join(target, DATA_TMP));
  await rename(join(target, DATA_TMP), join(target, DATA_DIR));
  const names = topLevel(payload);
  for (const n of names) {
    if (!(await exists(join(target, n)))) await symlink(posix.join(DATA_DIR, n), join(target, n));
  }
  for (const n of old.names) if (!names.has(n)) await rm(join(target, n), { force: true, recursive: true });
  if (old.dir && old.dir !== ts) await rm(join(target, old.dir), { force: true, recursive: true });
  return { ok: true, changed: true };
}
