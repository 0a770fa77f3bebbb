/**
 * A small regular file (a static pod manifest, resolv.conf, a registry config) read on the pod start's path:
 * synchronously up to SYNC_READ_MAX bytes (O_NONBLOCK open, fstat, read, close — as promises these were four or five
 * thread-pool round trips in a row, each queued behind the pool's other work); a larger file through the pool.
 * Rejects for anything but a regular file: O_NONBLOCK makes a FIFO in its place open at once and be refused
 * (EINVAL) instead of blocking.
 */
import { closeSync, constants, fstatSync, openSync, promises as fsp, readSync } from 'node:fs';

export const SYNC_READ_MAX = 256 * 1024;

const notRegular = (path: string) => Object.assign(new Error(`${path}: not a regular file`), { code: 'EINVAL' });

export async function readRegularFile(path: string): Promise<string> {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(path);
    if (st.size <= SYNC_READ_MAX) {
      const buf = Buffer.allocUnsafe(st.size + 1); // one byte more: a file grown since the fstat is read through the pool
      let n = 0;
      for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
      if (n <= st.size) return buf.toString('utf8', 0, n);
    }
  } finally {
    closeSync(fd);
  }
  const fh = await fsp.open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!(await fh.stat()).isFile()) throw notRegular(path);
    return await fh.readFile('utf8');
  } finally {
    await fh.close();
  }
}
