/**
 * hostPath volumes: the host path itself is bound into containers; SetUp only runs the `type` check the
 * kubelet's hostPath plugin does ("" = no check; DirectoryOrCreate / FileOrCreate create what is missing).
 */
import { chmod, mkdir, open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';

export type HostPathType = '' | 'DirectoryOrCreate' | 'Directory' | 'FileOrCreate' | 'File' | 'Socket' | 'CharDevice' | 'BlockDevice';

export type CheckResult = { ok: true } | { ok: false; message: string };

const fail = (path: string, what: string): CheckResult => ({ ok: false, message: `hostPath type check failed: ${path} is not ${what}` });

async function statOf(path: string): Promise<Stats | undefined> {
  return stat(path).catch(() => undefined);
}

export async function checkHostPathType(path: string, type: string | undefined): Promise<CheckResult> {
  const t = (type ?? '') as HostPathType;
  let st = await statOf(path);
  switch (t) {
    case '':
      return { ok: true };
    case 'DirectoryOrCreate':
      if (!st) {
        await mkdir(path, { recursive: true, mode: 0o755 });
        await chmod(path, 0o755);
        return { ok: true };
      }
      return st.isDirectory() ? { ok: true } : fail(path, 'a directory');
    case 'Directory':
      return st?.isDirectory() ? { ok: true } : fail(path, 'a directory');
    case 'FileOrCreate':
      if (!st) {
        try {
          await (await open(path, 'a', 0o644)).close();
        } catch (err) {
          return { ok: false, message: `hostPath type check failed: ${(err as Error).message}` };
        }
        st = await statOf(path);
      }
      return st?.isFile() ? { ok: true } : fail(path, 'a file');
    case 'File':
      return st?.isFile() ? { ok: true } : fail(path, 'a file');
    case 'Socket':
      return st?.isSocket() ? { ok: true } : fail(path, 'a socket file');
    case 'CharDevice':
      return st?.isCharacterDevice() ? { ok: true } : fail(path, 'a character device');
    case 'BlockDevice':
      return st?.isBlockDevice() ? { ok: true } : fail(path, 'a block device');
    default:
      return { ok: false, message: `invalid HostPathType: ${String(type)}` };
  }
}
