import type { LinuxContainerSecurityContext__Output } from '../../../../proto/gen/runtime/v1/LinuxContainerSecurityContext.ts';

/** The capabilities containerd/Docker give a container by default. */
export const DEFAULT_CAPS = [
  'chown', 'dac_override', 'fsetid', 'fowner', 'mknod', 'net_raw', 'setgid', 'setuid', 'setfcap', 'setpcap',
  'net_bind_service', 'sys_chroot', 'kill', 'audit_write',
] as const;

const norm = (c: string) => c.trim().toLowerCase().replace(/^cap_/, '');

/**
 * The bounding set for `setpriv --bounding-set` ("-all,+chown,..."), from the defaults and the CRI
 * capabilities add/drop lists ("ALL" allowed); undefined = keep every capability (privileged).
 * sys_chroot, setuid and setgid stay available to the runtime's own exec step only when the container keeps them.
 */
export function boundingSet(sc: LinuxContainerSecurityContext__Output | null | undefined): string | undefined {
  if (sc?.privileged) return undefined;
  const add = (sc?.capabilities?.addCapabilities ?? []).map(norm);
  const drop = (sc?.capabilities?.dropCapabilities ?? []).map(norm);
  if (add.includes('all') && !drop.length) return undefined;
  let caps = new Set<string>(add.includes('all') ? [] : DEFAULT_CAPS);
  for (const c of add) if (c !== 'all') caps.add(c);
  if (drop.includes('all')) caps = new Set(add.filter((c) => c !== 'all'));
  else for (const c of drop) caps.delete(c);
  return ['-all', ...[...caps].sort().map((c) => `+${c}`)].join(',');
}
