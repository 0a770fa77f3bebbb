/**
 * The real HostFs over node:fs. `root` re-roots every absolute path (fixture trees in a temp dir);
 * `emulateCgroupfs` makes rmdir behave as on cgroupfs (control files vanish with the directory, child
 * directories make it fail) so fixture trees can stand in for /sys/fs/cgroup.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { DirEntry, HostFs, StatFsResult } from './types.ts';

export interface NodeHostFsOptions {
  root?: string;
  emulateCgroupfs?: boolean;
}

export function createNodeHostFs(opts: NodeHostFsOptions = {}): HostFs {
  const root = opts.root;
  const at = (p: string): string => (root ? path.join(root, p) : p);
  return {
    readFile: (p) => fsp.readFile(at(p), 'utf8'),
    async readdir(p): Promise<DirEntry[]> {
      const ents = await fsp.readdir(at(p), { withFileTypes: true });
      return ents.map((e) => ({ name: e.name, dir: e.isDirectory() }));
    },
    async mkdir(p) {
      await fsp.mkdir(at(p), { recursive: true });
    },
    writeFile: (p, data) => fsp.writeFile(at(p), data),
    async rmdir(p) {
      if (opts.emulateCgroupfs) {
        const ents = await fsp.readdir(at(p), { withFileTypes: true });
        if (ents.some((e) => e.isDirectory())) {
          throw Object.assign(new Error(`rmdir ${p}: device or resource busy`), { code: 'EBUSY' });
        }
        await Promise.all(ents.map((e) => fsp.unlink(path.join(at(p), e.name))));
      }
      await fsp.rmdir(at(p));
    },
    async statfs(p): Promise<StatFsResult> {
      const s = await fsp.statfs(at(p));
      return { bsize: s.bsize, blocks: s.blocks, bfree: s.bfree, bavail: s.bavail, files: s.files, ffree: s.ffree };
    },
    async exists(p) {
      try {
        await fsp.access(at(p));
        return true;
      } catch {
        return false;
      }
    },
  };
}
