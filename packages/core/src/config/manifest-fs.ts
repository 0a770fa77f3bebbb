/** The file system calls the file source needs, injectable so tests control watch events. */
import { closeSync, constants, fstatSync, openSync, promises as fsp, readSync, statSync, watch as fsWatch } from 'node:fs';

export interface ManifestFs {
  /**
   * Follows symlinks (as os.Stat); undefined when the path, or a link's target, does not exist. `version`, when
   * given, changes whenever the content may have (device, inode, size, mtime, ctime): an unchanged version lets
   * the file source skip reading the file again.
   */
  stat(path: string): Promise<{ isDirectory: boolean; isFile: boolean; version?: string } | undefined>;
  /** The entries of dir (isFile: a regular file itself, not a link; the file source stats each entry anyway). */
  readdir(dir: string): Promise<Array<{ name: string; isFile: boolean }>>;
  /** The content of a regular file (through symlinks); rejects for anything else (a FIFO never blocks it). */
  readFile(path: string): Promise<string>;
  /** Calls onEvent on any change under path (non-recursive). */
  watch(path: string, onEvent: () => void, onError: (err: unknown) => void): { close(): void };
}

/** Manifests up to this size are read synchronously (larger ones, rare, through the thread pool). */
const SYNC_READ_MAX = 256 * 1024;

export const nodeManifestFs: ManifestFs = {
  async stat(path) {
    try {
      // Synchronous: a stat is a few µs of kernel work, a promise stat ~80 µs of CPU in thread-pool round trips, and
      // every scan stats each entry (FileSource yields to the event loop between batches of a large directory).
      const s = statSync(path, { bigint: true });
      return { isDirectory: s.isDirectory(), isFile: s.isFile(), version: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  },
  async readdir(dir) {
    const ents = await fsp.readdir(dir, { withFileTypes: true });
    return ents.map((e) => ({ name: e.name, isFile: e.isFile() }));
  },
  async readFile(path) {
    // O_NONBLOCK: a FIFO swapped in after the stat opens at once and is refused below instead of blocking.
    // A manifest (a few KiB, just written, in the page cache) is read synchronously: open, fstat, read and close as
    // promises were four or five thread-pool round trips in a row between the file watch and the pod's admission.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw Object.assign(new Error(`${path}: not a regular file`), { code: 'EINVAL' });
      if (st.size <= SYNC_READ_MAX) {
        const buf = Buffer.allocUnsafe(st.size + 1); // one byte more: a file grown since the fstat is read to its end below
        let n = 0;
        for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
        if (n <= st.size) return buf.toString('utf8', 0, n);
      }
    } finally {
      closeSync(fd);
    }
    const fh = await fsp.open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw Object.assign(new Error(`${path}: not a regular file`), { code: 'EINVAL' });
      return await fh.readFile('utf8');
    } finally {
      await fh.close();
    }
  },
  watch(path, onEvent, onError) {
    const w = fsWatch(path, { persistent: false }, () => onEvent());
    w.on('error', onError);
    return { close: () => w.close() };
  },
};
