/**
 * The kubelet's sysctl allowlist (pkg/kubelet/sysctl/allowlist.go): a pod's spec.securityContext.sysctls must be
 * safe or allowed by --allowed-unsafe-sysctls / allowedUnsafeSysctls (names or patterns ending in `*`), and
 * namespaced sysctls are refused when the pod shares that namespace with the host. Refusal: SysctlForbidden.
 */
import type { PodAdmitAttributes, PodAdmitHandler, PodAdmitResult } from './types.ts';

export const SysctlForbiddenReason = 'SysctlForbidden';

/**
 * The kubelet v1.28 safe sysctls (safe_sysctls.go; net.ipv4.ip_local_reserved_ports needs kernel 3.16, which
 * every supported kernel is). net.ipv4.tcp_keepalive_time and later ones joined the list after v1.28.
 */
export const SAFE_SYSCTLS: readonly string[] = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.ip_local_reserved_ports',
];

type Namespace = 'ipc' | 'net';

/** component-helpers/node/util/sysctl NamespacedBy: which kernel namespace isolates the sysctl, if any. */
export function namespacedBy(name: string): Namespace | undefined {
  if (name === 'kernel.sem') return 'ipc';
  if (['kernel.shm', 'kernel.msg', 'fs.mqueue.'].some((p) => name.startsWith(p))) return 'ipc';
  if (name.startsWith('net.')) return 'net';
  return undefined;
}

/** ConvertSysctlVariableToDotsSeparator: "net/ipv4/conf/eth0.1/rp_filter" → "net.ipv4.conf.eth0/1.rp_filter". */
export function toDotSeparated(name: string): string {
  const first = name.search(/[./]/);
  if (first < 0 || name[first] === '.') return name;
  return name.replace(/[./]/g, (ch) => (ch === '.' ? '/' : '.'));
}

const SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
/** policy validation SysctlContainSlashPatternFmt, as the kubelet prints it. */
const PATTERN_FMT = `(${SEGMENT}[\\./])*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]`;
const PATTERN_RE = new RegExp(`^${PATTERN_FMT}$`);
const SYSCTL_MAX_LENGTH = 253;

export type SysctlAllowlist = PodAdmitHandler;

/** NewAllowlist(safe + allowed unsafe): an error (the kubelet refuses to start) for an invalid or non-namespaced pattern. */
export function createSysctlAllowlist(allowedUnsafe: readonly string[] = []): { ok: true; handler: SysctlAllowlist } | { ok: false; reason: string } {
  const exact = new Map<string, Namespace>();
  const prefixes = new Map<string, Namespace>();
  for (const raw of [...SAFE_SYSCTLS, ...allowedUnsafe]) {
    if (raw.length > SYSCTL_MAX_LENGTH || !PATTERN_RE.test(raw)) {
      return { ok: false, reason: `sysctl "${raw}" must have at most ${SYSCTL_MAX_LENGTH} characters and match regex ${PATTERN_FMT}` };
    }
    const s = toDotSeparated(raw);
    if (s.endsWith('*')) {
      const prefix = s.slice(0, -1);
      const ns = namespacedBy(prefix);
      if (!ns) return { ok: false, reason: `the sysctls "${s}" are not known to be namespaced` };
      prefixes.set(prefix, ns);
    } else {
      const ns = namespacedBy(s);
      if (!ns) return { ok: false, reason: `the sysctl "${s}" are not known to be namespaced` };
      exact.set(s, ns);
    }
  }

  const validate = (name: string, hostNet: boolean, hostIPC: boolean): string | undefined => {
    const s = toDotSeparated(name);
    let ns = exact.get(s);
    if (!ns) for (const [p, n] of prefixes) if (s.startsWith(p)) { ns = n; break; }
    if (!ns) return `"${s}" not allowlisted`;
    if ((ns === 'ipc' && hostIPC) || (ns === 'net' && hostNet)) return `"${s}" not allowed with host ${ns} enabled`;
    return undefined;
  };

  const admit = ({ pod }: PodAdmitAttributes): PodAdmitResult => {
    for (const { name } of pod.spec?.securityContext?.sysctls ?? []) {
      const err = validate(name, pod.spec?.hostNetwork === true, pod.spec?.hostIPC === true);
      if (err) return { admit: false, reason: SysctlForbiddenReason, message: `forbidden sysctl: ${err}` };
    }
    return { admit: true };
  };
  return { ok: true, handler: { name: 'sysctl', admit } };
}
