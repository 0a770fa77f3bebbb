/** The real file system for container GC (log files removed with their containers, pod log directories). */
import { readdir, rm, stat, unlink } from 'node:fs/promises';
import type { GcFs } from '../kuberuntime/container-gc.ts';

export const nodeGcFs: GcFs = {
  async size(path) {
    return (await stat(path)).size;
  },
  async remove(path) {
    await unlink(path);
  },
  async removeAll(path) {
    await rm(path, { recursive: true, force: true });
  },
  async readDir(path) {
    return readdir(path).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
  },
};
