/**
 * Image sizes as the kubelet's image GC needs them: an image's size is what removing it frees — its own unpacked
 * rootfs plus the blobs (config, manifest, layers) that no other image references. Blobs shared with another
 * image stay on disk when one of them goes, so neither image counts them. Also the store's fixed entries
 * (directories, index.json) so that ImageFsInfo's usedBytes equals a disk walk of the store.
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

export interface ImageFootprint {
  id: string;
  /** Every blob digest the image references (duplicates are counted once). */
  blobs: readonly string[];
  /** Allocated bytes of the image's unpacked rootfs (the directory included). */
  rootfsBytes: number;
}

/** Bytes freed by removing each image alone: rootfs + blobs referenced by that image only. */
export function reclaimableBytes(images: readonly ImageFootprint[], blobBytes: (digest: string) => number | undefined): Map<string, number> {
  const refs = new Map<string, number>();
  for (const img of images) {
    for (const d of new Set(img.blobs)) refs.set(d, (refs.get(d) ?? 0) + 1);
  }
  const out = new Map<string, number>();
  for (const img of images) {
    let bytes = img.rootfsBytes;
    for (const d of new Set(img.blobs)) if (refs.get(d) === 1) bytes += blobBytes(d) ?? 0;
    out.set(img.id, bytes);
  }
  return out;
}

/** The blobs an image record keeps alive: config (= id), manifest when stored, layers. */
export function blobsOf(img: { id: string; manifest?: string; layers: readonly string[] }): string[] {
  return [img.id, ...(img.manifest !== undefined ? [img.manifest] : []), ...img.layers];
}

export interface Usage {
  bytes: number;
  inodes: number;
}

/**
 * Allocated bytes and inodes of the store's own entries: every direct child of `rootDir` (blobs/, rootfs/, tmp/,
 * index.json, …) and `blobs/sha256` — not the blobs or rootfs trees, which the store tracks itself.
 */
export async function storeOverhead(rootDir: string): Promise<Usage> {
  const out: Usage = { bytes: 0, inodes: 0 };
  const add = async (p: string) => {
    const st = await fsp.lstat(p).catch(() => null);
    if (!st) return;
    out.bytes += st.blocks * 512;
    out.inodes++;
  };
  const names = await fsp.readdir(rootDir).catch(() => [] as string[]);
  for (const n of names) await add(path.join(rootDir, n));
  await add(path.join(rootDir, 'blobs', 'sha256'));
  return out;
}
