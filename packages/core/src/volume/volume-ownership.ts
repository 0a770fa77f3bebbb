/**
 * The kubelet's SetVolumeOwnership (pkg/volume/volume_linux.go): with a pod `fsGroup`, every file and directory
 * of a volume gets group fsGroup (lchown, owner kept) and the group bits of its mask added to its mode — rw
 * (0660) for a writable volume, r (0440) for a read-only one (secret, configMap, downwardAPI, projected);
 * directories also get setgid and x for owner and group (0110) so new files inherit the group. Symlinks are
 * re-grouped but never chmodded (a chmod would follow them and override the payload's mode). Children are
 * visited before their directory (walkDeep). `OnRootMismatch` skips the walk when the root already has the
 * group, the bits and setgid; the kubelet passes no policy for emptyDir and API-data volumes (always walk).
 */
import { chmod, lchown, lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const RW_MASK = 0o660;
const RO_MASK = 0o440;
const EXEC_MASK = 0o110;
const SETGID = 0o2000;

export type FSGroupChangePolicy = 'Always' | 'OnRootMismatch';

export interface Ownership {
  fsGroup: number;
  /** The volume's ReadOnly attribute (the plugin's, not the mount's). */
  readOnly: boolean;
  policy?: FSGroupChangePolicy | string;
}

/** A file's mode once the ownership change ran over it (what the payload writer should expect on disk). */
export function ownedFileMode(mode: number, readOnly: boolean): number {
  return mode | (readOnly ? RO_MASK : RW_MASK);
}

/** The ownership for a pod's volumes: its `securityContext.fsGroup`, or undefined (nothing is changed). */
export function podOwnership(
  sc: { fsGroup?: number; fsGroupChangePolicy?: string } | undefined,
  readOnly: boolean,
  usePolicy = false,
): Ownership | undefined {
  if (sc?.fsGroup === undefined || sc.fsGroup === null) return undefined;
  return { fsGroup: sc.fsGroup, readOnly, ...(usePolicy && sc.fsGroupChangePolicy ? { policy: sc.fsGroupChangePolicy } : {}) };
}

/** requiresPermissionChange: the root's group, mask bits (plus x) and setgid. */
async function rootMismatch(dir: string, o: Ownership): Promise<boolean> {
  const st = await stat(dir).catch(() => undefined);
  if (!st || st.gid !== o.fsGroup || !st.isDirectory()) return true;
  const want = (o.readOnly ? RO_MASK : RW_MASK) | EXEC_MASK;
  return (st.mode & want) !== want || (st.mode & SETGID) === 0;
}

/** As the kubelet, a failed chown or chmod is reported and the walk goes on. */
async function change(path: string, o: Ownership, isDir: boolean, isLink: boolean, mode: number, errors: string[]): Promise<void> {
  await lchown(path, -1, o.fsGroup).catch((e: Error) => errors.push(`lchown ${path}: ${e.message}`));
  if (isLink) return;
  const mask = (o.readOnly ? RO_MASK : RW_MASK) | (isDir ? SETGID | EXEC_MASK : 0);
  await chmod(path, (mode & 0o7777) | mask).catch((e: Error) => errors.push(`chmod ${path}: ${e.message}`));
}

async function walkDeep(path: string, o: Ownership, errors: string[]): Promise<void> {
  const st = await lstat(path);
  if (st.isDirectory()) {
    for (const name of await readdir(path)) await walkDeep(join(path, name), o, errors);
  }
  await change(path, o, st.isDirectory(), st.isSymbolicLink(), st.mode, errors);
}

export interface OwnershipResult {
  walked: boolean;
  /** chown/chmod failures (the walk went on past them). */
  errors: string[];
}

/** Applies `o` to everything under `dir` (nothing when `o` is undefined). A missing dir throws. */
export async function setVolumeOwnership(dir: string, o: Ownership | undefined): Promise<OwnershipResult> {
  if (!o) return { walked: false, errors: [] };
  if (o.policy === 'OnRootMismatch' && !(await rootMismatch(dir, o))) return { walked: false, errors: [] };
  const errors: string[] = [];
  await walkDeep(dir, o, errors);
  return { walked: true, errors };
}
