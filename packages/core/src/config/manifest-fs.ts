/** The file system calls the file source needs, injectable so tests control watch events. */
import { readdirSync, statSync, watch as fsWatch } from 'node:fs';
import { readRegularFile } from '../util/read-regular-file.ts';

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
    // Synchronous as stat: a directory's entries are µs to a few ms of kernel work (5 000 entries), a promise readdir
    // a thread-pool round trip between the file watch and the pod's admission.
    const ents = readdirSync(dir, { withFileTypes: true });
    return ents.map((e) => ({ name: e.name, isFile: e.isFile() }));
  },
  // O_NONBLOCK: a FIFO swapped in after the stat opens at once and is refused instead of blocking; a manifest (a few
  // KiB, just written) is read synchronously, between the file watch and the pod's admission.
  readFile: readRegularFile,
  watch(path, onEvent, onError) {
    const w = fsWatch(path, { persistent: false }, () => onEvent());
    w.on('error', onError);
    return { close: () => w.close() };
  },
};
