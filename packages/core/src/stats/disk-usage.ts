/** A real DiskUsage (du): bytes allocated and inodes under a directory, not following symlinks. */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { DiskUsage } from './types.ts';

export function createNodeDiskUsage(root?: string): DiskUsage {
  const at = (p: string) => (root ? path.join(root, p) : p);
  return async (dir) => {
    try {
      return await walk(at(dir));
    } catch {
      return undefined;
    }
  };
}

async function walk(p: string): Promise<{ bytes: number; inodes: number }> {
  const st = await fsp.lstat(p);
  let bytes = st.blocks * 512;
  let inodes = 1;
  if (st.isDirectory()) {
    let names: string[] = [];
    try {
      names = await fsp.readdir(p);
    } catch {
      return { bytes, inodes };
    }
    for (const n of names) {
      try {
        const sub = await walk(path.join(p, n));
        bytes += sub.bytes;
        inodes += sub.inodes;
      } catch {
        // vanished while walking
      }
    }
  }
  return { bytes, inodes };
}
