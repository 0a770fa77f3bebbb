/**
 * The container's seccomp filter from its CRI security context, decided at CreateContainer as containerd 1.6
 * does (pkg/cri/server/container_create_linux.go generateSeccompSpecOpts): none for a privileged container or
 * Unconfined; RuntimeDefault = the runtime's default profile (default-profile.ts); Localhost = the JSON profile
 * at `localhostRef` (the kubelet sends `<root-dir>/seccomp/<localhostProfile>`; a "localhost/" prefix is
 * accepted, as containerd trims it). The deprecated `seccompProfilePath` string is read when `seccomp` is unset.
 * Without a way to load a filter (not x86_64, or no perl on the host: the loader is a perl one-liner, see
 * linux/scripts.ts) RuntimeDefault and Localhost fail as containerd's do without seccomp: "seccomp is not supported".
 */
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { LinuxContainerSecurityContext__Output } from '../../../../../proto/gen/runtime/v1/LinuxContainerSecurityContext.ts';
import { boundingSet } from '../capabilities.ts';
import { compileProfile, type SeccompProfile } from './bpf.ts';
import { RUNTIME_DEFAULT_PROFILE } from './default-profile.ts';

export type SeccompResult = { ok: true; filter?: Buffer } | { ok: false; message: string };

const ALL_CAPS = [
  'CHOWN', 'DAC_OVERRIDE', 'DAC_READ_SEARCH', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID', 'SETPCAP', 'LINUX_IMMUTABLE',
  'NET_BIND_SERVICE', 'NET_BROADCAST', 'NET_ADMIN', 'NET_RAW', 'IPC_LOCK', 'IPC_OWNER', 'SYS_MODULE', 'SYS_RAWIO',
  'SYS_CHROOT', 'SYS_PTRACE', 'SYS_PACCT', 'SYS_ADMIN', 'SYS_BOOT', 'SYS_NICE', 'SYS_RESOURCE', 'SYS_TIME',
  'SYS_TTY_CONFIG', 'MKNOD', 'LEASE', 'AUDIT_WRITE', 'AUDIT_CONTROL', 'SETFCAP', 'MAC_OVERRIDE', 'MAC_ADMIN', 'SYSLOG',
  'WAKE_ALARM', 'BLOCK_SUSPEND', 'AUDIT_READ', 'PERFMON', 'BPF', 'CHECKPOINT_RESTORE',
];

/**
 * The capabilities the container's process may hold (its bounding set): the profile's includes/excludes are
 * decided by them. sys_chroot is among them always (the runtime's last step chroots, see container-start.ts).
 */
function containerCaps(sc: LinuxContainerSecurityContext__Output | null | undefined): Set<string> {
  const set = boundingSet(sc);
  const caps = set === undefined ? ALL_CAPS : set.split(',').filter((c) => c.startsWith('+')).map((c) => c.slice(1).toUpperCase());
  return new Set([...caps, 'SYS_CHROOT']);
}

function profileOf(sc: LinuxContainerSecurityContext__Output | null | undefined): { type: 'RuntimeDefault' | 'Unconfined' | 'Localhost'; ref?: string } {
  const sp = sc?.seccomp;
  if (sp) return sp.profileType === 'Localhost' ? { type: 'Localhost', ref: sp.localhostRef } : { type: sp.profileType === 'RuntimeDefault' ? 'RuntimeDefault' : 'Unconfined' };
  const path = sc?.seccompProfilePath ?? '';
  if (path === 'runtime/default' || path === 'docker/default') return { type: 'RuntimeDefault' };
  if (path.startsWith('localhost/')) return { type: 'Localhost', ref: path };
  return { type: 'Unconfined' };
}

export function seccompFilter(sc: LinuxContainerSecurityContext__Output | null | undefined, loaderAvailable: boolean): SeccompResult {
  if (sc?.privileged) return { ok: true };
  const p = profileOf(sc);
  if (p.type === 'Unconfined') return { ok: true };
  if (!loaderAvailable || process.arch !== 'x64') return { ok: false, message: 'seccomp is not supported' };
  let profile: SeccompProfile = RUNTIME_DEFAULT_PROFILE;
  if (p.type === 'Localhost') {
    const path = (p.ref ?? '').replace(/^localhost\//, '');
    const fail = (why: string) => ({ ok: false as const, message: `failed to generate seccomp spec opts: cannot load seccomp profile ${JSON.stringify(path)}: ${why}` });
    if (!isAbsolute(path)) return fail('the path must be absolute');
    try {
      profile = JSON.parse(readFileSync(path, 'utf8')) as SeccompProfile;
    } catch (err) {
      return fail((err as Error).message);
    }
    if (!profile || typeof profile.defaultAction !== 'string') return fail('no defaultAction');
  }
  const compiled = compileProfile(profile, containerCaps(sc));
  return compiled.ok ? { ok: true, filter: compiled.filter } : { ok: false, message: `failed to generate seccomp spec opts: ${compiled.message}` };
}
