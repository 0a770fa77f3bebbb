/**
 * A container's CRI LinuxContainerSecurityContext, as the kubelet builds it (v1.28
 * pkg/kubelet/kuberuntime/security_context.go determineEffectiveSecurityContext, helpers.go getSeccompProfile,
 * security_context_others.go verifyRunAsNonRoot, pkg/securitycontext/util.go).
 */
import type { V1Container, V1Pod, V1SecurityContext } from '@kubernetes/client-node';
import type { LinuxContainerSecurityContext } from '../cri/types.ts';
import { formatPod } from '../lifecycle/hooks/run-hooks.ts';
import { namespaceOptions } from './sandbox-config.ts';
import { podSupplementalGroups } from './supplemental-groups.ts';
import { seccompProfile } from './seccomp-profile.ts';

/**
 * pkg/securitycontext/util.go of the release-1.28 branch ("must be kept in sync with moby/moby"; powercap was
 * added and /proc/asound moved from the read-only list to the masked one in 1.28.12, kubernetes#126000).
 */
export const DEFAULT_MASKED_PATHS = [
  '/proc/asound', '/proc/acpi', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list',
  '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware', '/sys/devices/virtual/powercap',
];
export const DEFAULT_READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

/** The image's user as the kubelet's getImageUser reads it from ImageStatus: uid, else a name, else root (uid 0). */
export interface ImageUser {
  uid?: number;
  username?: string;
}

/**
 * securitycontext.DetermineEffectiveSecurityContext: the pod's runAsUser / runAsGroup / runAsNonRoot (and
 * SELinux / Windows options), each overridden by the container's own field when it sets one.
 */
export function effectiveSecurityContext(pod: V1Pod, c: V1Container): V1SecurityContext {
  const psc = pod.spec?.securityContext;
  const out: V1SecurityContext = {};
  if (psc?.seLinuxOptions) out.seLinuxOptions = psc.seLinuxOptions;
  if (psc?.windowsOptions) out.windowsOptions = psc.windowsOptions;
  if (psc?.runAsUser !== undefined && psc.runAsUser !== null) out.runAsUser = psc.runAsUser;
  if (psc?.runAsGroup !== undefined && psc.runAsGroup !== null) out.runAsGroup = psc.runAsGroup;
  if (psc?.runAsNonRoot !== undefined && psc.runAsNonRoot !== null) out.runAsNonRoot = psc.runAsNonRoot;
  for (const [k, v] of Object.entries(c.securityContext ?? {})) {
    if (v !== undefined && v !== null) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** verifyRunAsNonRoot: the kubelet's message when the container would run as root under runAsNonRoot, else undefined. */
export function verifyRunAsNonRoot(pod: V1Pod, c: V1Container, user: ImageUser): string | undefined {
  const sc = effectiveSecurityContext(pod, c);
  if (sc.runAsNonRoot !== true) return undefined;
  const where = `(pod: ${JSON.stringify(formatPod(pod))}, container: ${c.name})`;
  if (sc.runAsUser !== undefined) return sc.runAsUser === 0 ? `container's runAsUser breaks non-root policy ${where}` : undefined;
  if (user.uid === undefined && user.username) {
    return `container has runAsNonRoot and image has non-numeric user (${user.username}), cannot verify user is non-root ${where}`;
  }
  if (user.uid === 0) return `container has runAsNonRoot and image will run as root ${where}`;
  if (user.uid !== undefined && (user.uid < 1 || user.uid > 2147483647)) {
    return `container has runAsNonRoot and image has an invalid user id (${user.uid}). (Must be 1-(2147483647)): must be between 0 and 2147483647, inclusive ${where}`;
  }
  return undefined;
}

export interface SecurityContextOptions {
  /** `<root-dir>/seccomp`: where Localhost profiles are looked up. */
  seccompRoot: string;
  /** KubeletConfiguration seccompDefault (false by default). */
  seccompDefault?: boolean;
}

/**
 * determineEffectiveSecurityContext + verifyRunAsNonRoot: the CRI security context of a container whose image
 * runs as `user`, or the kubelet's CreateContainerConfigError message.
 */
export function containerSecurityContext(pod: V1Pod, c: V1Container, user: ImageUser, opts: SecurityContextOptions): { ok: true; sc: LinuxContainerSecurityContext } | { ok: false; message: string } {
  const nonRoot = verifyRunAsNonRoot(pod, c, user);
  if (nonRoot) return { ok: false, message: nonRoot };
  const eff = effectiveSecurityContext(pod, c);
  const seccomp = seccompProfile(pod, c, opts.seccompRoot, opts.seccompDefault);
  if (!seccomp.ok) return seccomp;
  const unmasked = eff.procMount === 'Unmasked';
  const sc: LinuxContainerSecurityContext = {
    privileged: eff.privileged ?? false,
    readonlyRootfs: eff.readOnlyRootFilesystem ?? false,
    namespaceOptions: namespaceOptions(pod),
    ...(eff.capabilities ? { capabilities: { addCapabilities: eff.capabilities.add ?? [], dropCapabilities: eff.capabilities.drop ?? [] } } : {}),
    seccomp: seccomp.profile,
    noNewPrivs: eff.allowPrivilegeEscalation === false,
    maskedPaths: unmasked ? [] : [...DEFAULT_MASKED_PATHS],
    readonlyPaths: unmasked ? [] : [...DEFAULT_READONLY_PATHS],
  };
  if (eff.runAsUser !== undefined) sc.runAsUser = { value: eff.runAsUser };
  else {
    if (user.uid !== undefined) sc.runAsUser = { value: user.uid };
    if (user.username) sc.runAsUsername = user.username;
  }
  if (eff.runAsGroup !== undefined) sc.runAsGroup = { value: eff.runAsGroup };
  const groups = podSupplementalGroups(pod.spec?.securityContext);
  if (groups) sc.supplementalGroups = groups;
  return { ok: true, sc };
}
