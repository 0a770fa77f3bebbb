/** The real file system for the container log manager (kuberuntime/logs/log-rotation.ts). */
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rename, stat, unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { LogRotationFs } from '../kuberuntime/logs/log-rotation.ts';

const absent = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

export const nodeLogRotationFs: LogRotationFs = {
  async size(path) {
    try {
      return (await stat(path)).size;
    } catch (err) {
      if (absent(err)) return undefined;
      throw err;
    }
  },
  async readDir(path) {
    try {
      return await readdir(path);
    } catch (err) {
      if (absent(err)) return [];
      throw err;
    }
  },
  rename,
  async remove(path) {
    await unlink(path).catch((err: unknown) => {
      if (!absent(err)) throw err;
    });
  },
  async gzip(src, dst) {
    const { mode } = await stat(src);
    try {
      await pipeline(createReadStream(src), createGzip(), createWriteStream(dst, { mode: mode & 0o777 }));
    } catch (err) {
      await unlink(dst).catch(() => undefined);
      throw err;
    }
  },
};
