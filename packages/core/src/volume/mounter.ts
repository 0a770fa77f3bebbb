/** The real Mounter: mount(8) / umount(8) for tmpfs, /proc/self/mountinfo for what is mounted. */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Mounter } from './types.ts';

const run = promisify(execFile);

/** Mount points from mountinfo text (field 5, octal escapes decoded). */
export function parseMountPoints(mountinfo: string): string[] {
  return mountinfo
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter((p): p is string => !!p)
    .map((p) => p.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
}

export function createMounter(isRoot: boolean): Mounter {
  return {
    canMount: isRoot,
    async mountTmpfs(path, sizeBytes) {
      const opts = ['mode=0777', ...(sizeBytes !== undefined ? [`size=${sizeBytes}`] : [])].join(',');
      await run('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', path]);
    },
    async unmount(path) {
      await run('umount', [path]);
    },
    async mountPointsUnder(dir) {
      const text = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
      const d = dir.replace(/\/$/, '');
      return parseMountPoints(text).filter((p) => p === d || p.startsWith(`${d}/`));
    },
  };
}
