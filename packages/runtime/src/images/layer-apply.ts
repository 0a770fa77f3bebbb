/**
 * Applies one image layer (a tar, gzip or plain) onto a rootfs directory, with OCI whiteouts:
 * `.wh.NAME` deletes NAME from lower layers, `.wh..wh..opq` empties its directory of lower-layer content.
 * Never writes through a symlink (a layer cannot escape the rootfs). Ownership is kept when running as root;
 * device nodes and fifos are created with mknod/mkfifo as root and skipped otherwise.
 */
import * as fs from 'node:fs';
import { createReadStream, createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createGunzip } from 'node:zlib';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import * as tarStream from 'tar-stream';
import type { Header } from 'tar-stream';
import { hostEnv } from '../linux/host-env.ts';

const run = promisify(execFile);
const WH = '.wh.';
const OPAQUE = '.wh..wh..opq';

export interface ApplyOptions {
  /** Keep uid/gid and create device nodes (default: process.getuid() === 0). */
  asRoot?: boolean;
  /** Called with the number of (compressed) bytes read so far. */
  onBytes?: (doneBytes: number) => void;
  signal?: AbortSignal;
}

export type ApplyResult = { ok: true; skipped: number } | { ok: false; message: string };

class LayerError extends Error {}

/** Applies the layer at `layerFile` onto `rootfs` (which must exist). */
export async function applyLayer(rootfs: string, layerFile: string, opts: ApplyOptions = {}): Promise<ApplyResult> {
  const asRoot = opts.asRoot ?? process.getuid?.() === 0;
  const state = new ApplyState(rootfs, asRoot);
  let source: Readable | undefined;
  try {
    source = await openLayer(layerFile, opts.onBytes);
    const extract = tarStream.extract();
    source.on('error', (err) => extract.destroy(err));
    source.pipe(extract as unknown as NodeJS.WritableStream);
    for await (const entry of extract) {
      if (opts.signal?.aborted) throw new LayerError('aborted');
      await state.entry(entry.header, entry as unknown as Readable);
    }
    await state.finish();
    return { ok: true, skipped: state.skipped };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return { ok: false, message: `failed to apply layer ${path.basename(layerFile)}: ${msg}` };
  } finally {
    source?.destroy();
  }
}

async function openLayer(file: string, onBytes?: (n: number) => void): Promise<Readable> {
  const fh = await fsp.open(file, 'r');
  const magic = Buffer.alloc(4);
  try {
    await fh.read(magic, 0, 4, 0);
  } finally {
    await fh.close();
  }
  if (magic[0] === 0x28 && magic[1] === 0xb5 && magic[2] === 0x2f && magic[3] === 0xfd) {
    throw new LayerError('zstd-compressed layers are not supported');
  }
  const raw = createReadStream(file);
  let done = 0;
  if (onBytes) raw.on('data', (c) => onBytes((done += c.length)));
  if (magic[0] === 0x1f && magic[1] === 0x8b) {
    const gunzip = createGunzip();
    raw.on('error', (e) => gunzip.destroy(e));
    return raw.pipe(gunzip);
  }
  return raw;
}

/** Cleans a member name into a rootfs-relative path; '' is the root; throws on '..' escapes. */
export function cleanName(name: string): string {
  const n = path.posix.normalize('/' + name).replace(/^\/+/, '').replace(/\/+$/, '');
  if (n === '..' || n.startsWith('../')) throw new LayerError(`bad path ${name}`);
  return n;
}

class ApplyState {
  skipped = 0;
  private readonly layerPaths = new Set<string>();
  private readonly safeDirs = new Set<string>(['']);
  private readonly dirs: Array<{ rel: string; header: Header }> = [];

  constructor(private readonly rootfs: string, private readonly asRoot: boolean) {}

  private abs(rel: string): string {
    return rel === '' ? this.rootfs : path.join(this.rootfs, rel);
  }

  async entry(h: Header, stream: Readable): Promise<void> {
    const rel = cleanName(h.name);
    const base = path.posix.basename(rel);
    const dir = rel.includes('/') ? path.posix.dirname(rel) : '';
    if (base === OPAQUE) return drain(stream, () => this.opaque(dir));
    if (base.startsWith(WH)) return drain(stream, () => this.whiteout(path.posix.join(dir, base.slice(WH.length))));
    if (rel === '') return drain(stream, async () => {});
    this.layerPaths.add(rel);
    await this.ensureDir(dir);
    switch (h.type) {
      case 'directory':
        return drain(stream, () => this.directory(rel, h));
      case 'file':
      case 'contiguous-file':
        return this.file(rel, h, stream);
      case 'symlink':
        return drain(stream, () => this.symlink(rel, h));
      case 'link':
        return drain(stream, () => this.hardlink(rel, h));
      case 'character-device':
      case 'block-device':
      case 'fifo':
        return drain(stream, () => this.special(rel, h));
      default:
        this.skipped++;
        return drain(stream, async () => {});
    }
  }

  /** mkdir -p of a rootfs-relative dir, refusing symlinked or non-directory components. */
  private async ensureDir(rel: string): Promise<void> {
    if (this.safeDirs.has(rel)) return;
    let acc = '';
    for (const c of rel.split('/')) {
      acc = acc === '' ? c : `${acc}/${c}`;
      if (this.safeDirs.has(acc)) continue;
      const st = lstatOrNull(this.abs(acc));
      if (st === null) fs.mkdirSync(this.abs(acc), { mode: 0o755 });
      else if (st.isSymbolicLink()) throw new LayerError(`refusing to write through symlink /${acc}`);
      else if (!st.isDirectory()) throw new LayerError(`/${acc} is not a directory`);
      this.safeDirs.add(acc);
    }
  }

  /** True when every parent of rel is a real directory (no creation). */
  private async parentsAreDirs(rel: string): Promise<boolean> {
    try {
      const dir = rel.includes('/') ? path.posix.dirname(rel) : '';
      if (dir === '' || this.safeDirs.has(dir)) return true;
      await this.ensureDirExisting(dir);
      return true;
    } catch {
      return false;
    }
  }

  private async ensureDirExisting(rel: string): Promise<void> {
    let acc = '';
    for (const c of rel.split('/')) {
      acc = acc === '' ? c : `${acc}/${c}`;
      const st = fs.lstatSync(this.abs(acc));
      if (!st.isDirectory()) throw new LayerError('not a dir');
    }
  }

  private async opaque(dir: string): Promise<void> {
    await this.ensureDir(dir);
    for (const child of fs.readdirSync(this.abs(dir))) {
      const rel = dir === '' ? child : `${dir}/${child}`;
      if (this.fromThisLayer(rel)) continue;
      await this.removePath(rel);
    }
  }

  private fromThisLayer(rel: string): boolean {
    if (this.layerPaths.has(rel)) return true;
    const prefix = rel + '/';
    for (const p of this.layerPaths) if (p.startsWith(prefix)) return true;
    return false;
  }

  private async whiteout(rel: string): Promise<void> {
    if (rel === '' || !(await this.parentsAreDirs(rel))) return;
    await this.removePath(rel);
  }

  private async removePath(rel: string): Promise<void> {
    const st = lstatOrNull(this.abs(rel));
    if (st === null) return;
    if (st.isDirectory()) {
      const prefix = rel + '/';
      for (const d of this.safeDirs) if (d === rel || d.startsWith(prefix)) this.safeDirs.delete(d);
    }
    fs.rmSync(this.abs(rel), { recursive: true, force: true });
  }

  private async directory(rel: string, h: Header): Promise<void> {
    const st = lstatOrNull(this.abs(rel));
    if (st !== null && !st.isDirectory()) await this.removePath(rel);
    if (st === null || !st.isDirectory()) fs.mkdirSync(this.abs(rel), { mode: 0o755 });
    this.safeDirs.add(rel);
    this.dirs.push({ rel, header: h });
  }

  private async file(rel: string, h: Header, stream: Readable): Promise<void> {
    await this.removePath(rel);
    const target = this.abs(rel);
    await new Promise<void>((resolve, reject) => {
      const ws = createWriteStream(target, { flags: 'wx', mode: 0o600 });
      ws.on('close', resolve);
      ws.on('error', reject);
      stream.on('error', reject);
      stream.pipe(ws);
    });
    await this.meta(target, h, false);
  }

  private async symlink(rel: string, h: Header): Promise<void> {
    await this.removePath(rel);
    fs.symlinkSync(h.linkname, this.abs(rel));
    if (this.asRoot) fs.lchownSync(this.abs(rel), h.uid, h.gid);
    try {
      fs.lutimesSync(this.abs(rel), h.mtime, h.mtime);
    } catch {
      // lutimes is best effort
    }
  }

  private async hardlink(rel: string, h: Header): Promise<void> {
    const src = cleanName(h.linkname);
    const st = src === '' || !(await this.parentsAreDirs(src)) ? null : lstatOrNull(this.abs(src));
    if (st === null || st.isDirectory()) throw new LayerError(`hard link target /${src} missing for /${rel}`);
    await this.removePath(rel);
    fs.linkSync(this.abs(src), this.abs(rel));
  }

  private async special(rel: string, h: Header): Promise<void> {
    if (!this.asRoot) {
      this.skipped++;
      return;
    }
    await this.removePath(rel);
    const target = this.abs(rel);
    try {
      if (h.type === 'fifo') await run('mkfifo', ['--', target], { env: hostEnv() });
      else await run('mknod', ['--', target, h.type === 'block-device' ? 'b' : 'c', String(h.devmajor), String(h.devminor)], { env: hostEnv() });
      await this.meta(target, h, false);
    } catch {
      this.skipped++;
    }
  }

  private async meta(target: string, h: Header, isDir: boolean): Promise<void> {
    if (this.asRoot) fs.chownSync(target, h.uid, h.gid);
    // chmod after chown: chown clears setuid/setgid bits.
    fs.chmodSync(target, (h.mode ?? (isDir ? 0o755 : 0o644)) & 0o7777);
    fs.utimesSync(target, h.mtime, h.mtime);
  }

  /** Directory modes and times last, deepest first, so read-only dirs do not block their children. */
  async finish(): Promise<void> {
    const dirs = [...this.dirs].sort((a, b) => b.rel.length - a.rel.length);
    for (const { rel, header } of dirs) {
      const st = lstatOrNull(this.abs(rel));
      if (st !== null && st.isDirectory()) await this.meta(this.abs(rel), header, true);
    }
  }
}

async function drain(stream: Readable, work: () => Promise<void>): Promise<void> {
  const ended = new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('error', reject);
  });
  stream.resume();
  await work();
  await ended;
}

function lstatOrNull(p: string): fs.Stats | null {
  return fs.lstatSync(p, { throwIfNoEntry: false }) ?? null;
}
