/** The file system calls the file source needs, injectable so tests control watch events. */
import { promises as fsp, watch as fsWatch } from 'node:fs';

export interface ManifestFs {
  /** undefined when the path does not exist. */
  stat(path: string): Promise<{ isDirectory: boolean; isFile: boolean } | undefined>;
  readdir(dir: string): Promise<Array<{ name: string; isFile: boolean }>>;
  readFile(path: string): Promise<string>;
  /** Calls onEvent on any change under path (non-recursive). */
  watch(path: string, onEvent: () => void, onError: (err: unknown) => void): { close(): void };
}

export const nodeManifestFs: ManifestFs = {
  async stat(path) {
    try {
      const s = await fsp.stat(path);
      return { isDirectory: s.isDirectory(), isFile: s.isFile() };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  },
  async readdir(dir) {
    const ents = await fsp.readdir(dir, { withFileTypes: true });
    return ents.map((e) => ({ name: e.name, isFile: e.isFile() }));
  },
  readFile: (path) => fsp.readFile(path, 'utf8'),
  watch(path, onEvent, onError) {
    const w = fsWatch(path, { persistent: false }, () => onEvent());
    w.on('error', onError);
    return { close: () => w.close() };
  },
};
