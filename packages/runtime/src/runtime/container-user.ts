/**
 * The container process's uid, gid and supplementary groups, as containerd 1.6's CRI plugin sets them
 * (pkg/cri/server/container_create_linux.go, oci/spec_opts.go): the user string from the CRI runAsUser /
 * runAsUsername (+ ":" runAsGroup), else the image's USER, resolved through the image's /etc/passwd and
 * /etc/group (WithUser, WithUserID, WithUsername); the groups are the primary gid, the groups of the image's
 * /etc/group that list the user (WithAdditionalGIDs, with the CVE-2023-25173 fix that puts the gid first),
 * then the CRI supplementalGroups (the kubelet's fsGroup and pod supplementalGroups).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LinuxContainerSecurityContext__Output } from '../../../../proto/gen/runtime/v1/LinuxContainerSecurityContext.ts';

export type UserResult = { ok: true; uid?: number; gid?: number; groups?: number[] } | { ok: false; message: string };

type Entry = string[];

function entries(rootfs: string, file: 'passwd' | 'group'): Entry[] | undefined {
  try {
    return readFileSync(join(rootfs, 'etc', file), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(':'));
  } catch {
    return undefined;
  }
}

const num = (s: string | undefined): number | undefined => (s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined);

/** generateUserString: "uid" or "name", with ":gid" when runAsGroup is set; '' when the CRI names no user. */
function criUserString(sc: LinuxContainerSecurityContext__Output | null | undefined): { ok: true; user: string } | { ok: false; message: string } {
  let user = sc?.runAsUser ? String(sc.runAsUser.value) : '';
  if (sc?.runAsUsername) user = sc.runAsUsername;
  const group = sc?.runAsGroup ? String(sc.runAsGroup.value) : '';
  if (!user) return group ? { ok: false, message: `user group "${group}" is specified without user` } : { ok: true, user: '' };
  return { ok: true, user: group ? `${user}:${group}` : user };
}

/** oci.WithUser: uid and gid of "uid", "name", "uid:gid", "name:group"... looked up in the image's files. */
function withUser(userstr: string, rootfs: string): { ok: true; uid: number; gid: number } | { ok: false; message: string } {
  const parts = userstr.split(':');
  const passwd = () => entries(rootfs, 'passwd') ?? [];
  if (parts.length === 1) {
    const uid = num(parts[0]);
    if (uid !== undefined) {
      // WithUserID: the gid of the uid's passwd entry, else 0
      return { ok: true, uid, gid: num(passwd().find((e) => num(e[2]) === uid)?.[3]) ?? 0 };
    }
    const u = passwd().find((e) => e[0] === parts[0]);
    if (!u || num(u[2]) === undefined) return { ok: false, message: `no users found for "${parts[0]}" in /etc/passwd` };
    return { ok: true, uid: num(u[2])!, gid: num(u[3]) ?? 0 };
  }
  if (parts.length !== 2) return { ok: false, message: `invalid USER value ${userstr}` };
  let uid = num(parts[0]);
  let gid = num(parts[1]);
  if (uid === undefined) {
    uid = num(passwd().find((e) => e[0] === parts[0])?.[2]);
    if (uid === undefined) return { ok: false, message: `no users found for "${parts[0]}" in /etc/passwd` };
  }
  if (gid === undefined) {
    gid = num((entries(rootfs, 'group') ?? []).find((e) => e[0] === parts[1])?.[2]);
    if (gid === undefined) return { ok: false, message: `no groups found for "${parts[1]}" in /etc/group` };
  }
  return { ok: true, uid, gid };
}

/** oci.WithAdditionalGIDs: the gids of the image's groups that list the user by name (not its own group). */
function additionalGids(userstr: string, rootfs: string): number[] {
  const uid = num(userstr);
  const name = uid === undefined ? userstr : (entries(rootfs, 'passwd') ?? []).find((e) => num(e[2]) === uid)?.[0];
  if (!name) return [];
  const out: number[] = [];
  for (const g of entries(rootfs, 'group') ?? []) {
    if (g[0] === name) continue;
    const members = (g[3] ?? '').split(',').map((m) => m.trim());
    if (members.includes(name) && num(g[2]) !== undefined) out.push(num(g[2])!);
  }
  return out;
}

/**
 * The user the container runs as. No CRI user and no image USER: uid and gid undefined (the runtime's own
 * identity); otherwise uid, gid and the groups [gid, image groups of the user..., CRI supplementalGroups...].
 */
export function resolveContainerUser(sc: LinuxContainerSecurityContext__Output | null | undefined, imageUser: string, rootfs: string): UserResult {
  const cri = criUserString(sc);
  if (!cri.ok) return cri;
  const userstr = cri.user || imageUser;
  if (!userstr) return { ok: true };
  const u = withUser(userstr, rootfs);
  if (!u.ok) return u;
  const forGroups = sc?.runAsUsername || (sc?.runAsUser ? String(sc.runAsUser.value) : imageUser.split(':')[0] ?? '0');
  const extra = additionalGids(forGroups, rootfs);
  const groups = extra.includes(u.gid) ? extra : [u.gid, ...extra];
  const cri_ = (sc?.supplementalGroups ?? []).map(Number).filter((g) => Number.isInteger(g) && g >= 0 && g < 2 ** 32);
  return { ok: true, uid: u.uid, gid: u.gid, groups: [...groups, ...cri_] };
}
