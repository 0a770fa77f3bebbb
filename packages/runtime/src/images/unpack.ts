/** Unpacks an image's layers, in order, into a fresh rootfs directory (temp dir, then rename into place). */
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { applyLayer } from './layer-apply.ts';
import { diskUsage } from './store-index.ts';
import type { ImageFailure } from './types.ts';

export interface UnpackLayer {
  digest: string;
  file: string;
  size: number;
}

/** `usage`: allocated bytes and inodes of the rootfs, its own directory included. */
export type UnpackResult = { ok: true; usage: { bytes: number; inodes: number } } | ImageFailure;

export async function unpackImage(
  target: string,
  tmpRoot: string,
  layers: UnpackLayer[],
  onLayer?: (layer: string, doneBytes: number, totalBytes: number) => void,
  signal?: AbortSignal,
): Promise<UnpackResult> {
  const tmp = path.join(tmpRoot, `rootfs-${path.basename(target)}-${randomBytes(4).toString('hex')}`);
  await fsp.mkdir(tmp, { recursive: true, mode: 0o755 });
  try {
    for (const layer of layers) {
      const r = await applyLayer(tmp, layer.file, {
        ...(onLayer ? { onBytes: (n: number) => onLayer(layer.digest, n, layer.size) } : {}),
        ...(signal ? { signal } : {}),
      });
      if (!r.ok) return { ok: false, reason: 'Invalid', message: r.message };
    }
    await fsp.chmod(tmp, 0o755);
    const inside = await diskUsage(tmp);
    const self = await fsp.lstat(tmp); // the rootfs directory itself, as a walk of the store counts it
    const usage = { bytes: inside.bytes + self.blocks * 512, inodes: inside.inodes + 1 };
    await fsp.rm(target, { recursive: true, force: true });
    await fsp.rename(tmp, target);
    return { ok: true, usage };
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}
