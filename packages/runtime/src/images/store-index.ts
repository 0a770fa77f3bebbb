/** The image store's index file (`<rootDir>/index.json`), written atomically (temp file + fsync + rename). */
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { ImageConfig } from './types.ts';

export interface StoredImage {
  /** sha256 of the config blob. */
  id: string;
  repoTags: string[];
  repoDigests: string[];
  /** Sum of layer blob sizes (the download); ListImages reports what removal frees instead (image-sizes.ts). */
  size: number;
  config: ImageConfig;
  /** Layer blob digests, bottom first. */
  layers: string[];
  /** Manifest blob digest when one is stored. */
  manifest?: string;
  /** Disk usage of the unpacked rootfs, its own directory included. */
  usage: { bytes: number; inodes: number };
  lastUsed?: number;
}

interface IndexFile {
  version: 1;
  images: StoredImage[];
}

export async function loadIndex(file: string): Promise<StoredImage[]> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const doc = JSON.parse(text) as IndexFile;
  if (doc.version !== 1 || !Array.isArray(doc.images)) throw new Error(`${file}: unsupported index format`);
  return doc.images;
}

export async function saveIndex(file: string, images: StoredImage[]): Promise<void> {
  const doc: IndexFile = { version: 1, images };
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}`);
  const fh = await fsp.open(tmp, 'w', 0o644);
  try {
    await fh.writeFile(JSON.stringify(doc, null, 1));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fsp.rename(tmp, file);
}

/** Bytes and inodes under a directory (no symlink following; hard links counted once). */
export async function diskUsage(dir: string): Promise<{ bytes: number; inodes: number }> {
  const seen = new Set<number>();
  let bytes = 0;
  let inodes = 0;
  const walk = async (d: string): Promise<void> => {
    const entries = await fsp.readdir(d, { withFileTypes: true });
    for (const e of entries) {
      const p = path.join(d, e.name);
      const st = await fsp.lstat(p);
      if (st.nlink > 1 && !st.isDirectory()) {
        if (seen.has(st.ino)) continue;
        seen.add(st.ino);
      }
      inodes++;
      bytes += st.blocks * 512;
      if (st.isDirectory()) await walk(p);
    }
  };
  await walk(dir);
  return { bytes, inodes };
}
