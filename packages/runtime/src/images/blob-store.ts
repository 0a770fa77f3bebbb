/**
 * Content-addressed blobs under `<dir>/sha256/<hex>`, written via a temp file + rename after digest check.
 * Usage is counted as a disk walk sees it: allocated blocks (st.blocks × 512), one inode per blob.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

export type BlobWrite = { ok: true; digest: string; size: number } | { ok: false; message: string };

const DIGEST = /^sha256:([a-f0-9]{64})$/;

export function sha256(data: Buffer | string): string {
  return 'sha256:' + createHash('sha256').update(data).digest('hex');
}

/** Bytes a blob occupies on disk (allocated blocks, as du counts them). */
export function allocatedBytes(st: { blocks: number }): number {
  return st.blocks * 512;
}

export class BlobStore {
  private readonly allocated = new Map<string, number>();

  constructor(private readonly dir: string, private readonly tmpDir: string) {}

  path(digest: string): string {
    const m = DIGEST.exec(digest);
    if (!m) throw new Error(`bad digest ${digest}`);
    return path.join(this.dir, 'sha256', m[1]!);
  }

  /** Creates the directories and counts what is stored. */
  async init(): Promise<void> {
    await fsp.mkdir(path.join(this.dir, 'sha256'), { recursive: true });
    await fsp.mkdir(this.tmpDir, { recursive: true });
    this.allocated.clear();
    for (const name of await fsp.readdir(path.join(this.dir, 'sha256'))) {
      const st = await fsp.lstat(path.join(this.dir, 'sha256', name)).catch(() => null);
      if (st?.isFile()) this.allocated.set(`sha256:${name}`, allocatedBytes(st));
    }
  }

  usage(): { bytes: number; count: number } {
    let bytes = 0;
    for (const b of this.allocated.values()) bytes += b;
    return { bytes, count: this.allocated.size };
  }

  /** Allocated bytes of a stored blob; undefined when it is not stored. */
  allocatedOf(digest: string): number | undefined {
    return this.allocated.get(digest);
  }

  async has(digest: string): Promise<boolean> {
    if (!DIGEST.test(digest)) return false;
    return (await fsp.stat(this.path(digest)).catch(() => null))?.isFile() === true;
  }

  async size(digest: string): Promise<number> {
    return (await fsp.stat(this.path(digest))).size;
  }

  read(digest: string): Promise<Buffer> {
    return fsp.readFile(this.path(digest));
  }

  /** Streams chunks into the store; when `expected` is given the content must hash to it. */
  async write(chunks: AsyncIterable<Uint8Array>, expected?: string, onBytes?: (n: number) => void): Promise<BlobWrite> {
    if (expected !== undefined && !DIGEST.test(expected)) return { ok: false, message: `unsupported digest ${expected}` };
    const tmp = path.join(this.tmpDir, `blob-${randomBytes(8).toString('hex')}`);
    const hash = createHash('sha256');
    let size = 0;
    const ws = createWriteStream(tmp, { mode: 0o644 });
    const closed = new Promise<void>((resolve, reject) => {
      ws.on('close', resolve);
      ws.on('error', reject);
    });
    try {
      for await (const chunk of chunks) {
        hash.update(chunk);
        size += chunk.length;
        onBytes?.(size);
        if (!ws.write(chunk)) await new Promise<void>((r) => ws.once('drain', r));
      }
      ws.end();
      await closed;
    } catch (err) {
      ws.destroy();
      await closed.catch(() => {});
      await fsp.rm(tmp, { force: true });
      return { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    const digest = 'sha256:' + hash.digest('hex');
    if (expected !== undefined && digest !== expected) {
      await fsp.rm(tmp, { force: true });
      return { ok: false, message: `digest mismatch: expected ${expected}, got ${digest}` };
    }
    await this.commit(tmp, digest, size);
    return { ok: true, digest, size };
  }

  writeBuffer(buf: Buffer, expected?: string): Promise<BlobWrite> {
    return this.write((async function* () {
      yield buf;
    })(), expected);
  }

  /** Copies a file into the store (hashing it); `move` renames it in instead (a file we own, same fs). */
  async importFile(file: string, expected?: string, move = false): Promise<BlobWrite> {
    const st = await fsp.lstat(file).catch(() => null);
    if (!move || st === null || !st.isFile()) return this.write(createReadStream(file), expected);
    const hash = createHash('sha256');
    try {
      for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    } catch (err) {
      return { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    const digest = 'sha256:' + hash.digest('hex');
    if (expected !== undefined && digest !== expected) return { ok: false, message: `digest mismatch: expected ${expected}, got ${digest}` };
    try {
      await this.commit(file, digest, st.size);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      return this.write(createReadStream(file), digest);
    }
    return { ok: true, digest, size: st.size };
  }

  private async commit(tmp: string, digest: string, size: number): Promise<void> {
    const dest = this.path(digest);
    if (await this.has(digest)) {
      await fsp.rm(tmp, { force: true });
      return;
    }
    await fsp.rename(tmp, dest);
    const st = await fsp.lstat(dest).catch(() => null);
    this.allocated.set(digest, st ? allocatedBytes(st) : size);
  }

  async remove(digest: string): Promise<void> {
    await fsp.rm(this.path(digest), { force: true });
    this.allocated.delete(digest);
  }

  async list(): Promise<string[]> {
    const names = await fsp.readdir(path.join(this.dir, 'sha256'));
    return names.filter((n) => /^[a-f0-9]{64}$/.test(n)).map((n) => `sha256:${n}`);
  }
}
