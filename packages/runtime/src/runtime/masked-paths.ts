/**
 * The container's CRI maskedPaths and readonlyPaths (the kubelet sends its procMount defaults; an empty list
 * arrives as none, so containerd 1.6's own defaults apply then: oci/spec.go populateDefaultUnixSpec). None for a
 * privileged container (containerd clears them). Only paths under /proc and /sys are taken: they are the
 * kernel's, mounted fresh for the container, so no image symlink can lead the mount elsewhere.
 */
import type { LinuxContainerSecurityContext__Output } from '../../../../proto/gen/runtime/v1/LinuxContainerSecurityContext.ts';

export const CONTAINERD_MASKED_PATHS = [
  '/proc/acpi', '/proc/asound', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list', '/proc/timer_stats',
  '/proc/sched_debug', '/sys/firmware', '/proc/scsi',
];
export const CONTAINERD_READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

const SAFE = /^\/(proc|sys)(\/[A-Za-z0-9_:+@-][A-Za-z0-9._:+@-]*)+$/;

export type ProtectedPaths = { ok: true; masked: string[]; readonly: string[] } | { ok: false; message: string };

export function protectedPaths(sc: LinuxContainerSecurityContext__Output | null | undefined): ProtectedPaths {
  if (sc?.privileged) return { ok: true, masked: [], readonly: [] };
  const masked = sc?.maskedPaths?.length ? sc.maskedPaths : CONTAINERD_MASKED_PATHS;
  const readonly = sc?.readonlyPaths?.length ? sc.readonlyPaths : CONTAINERD_READONLY_PATHS;
  const bad = [...masked, ...readonly].find((p) => !SAFE.test(p) || p.split('/').includes('..'));
  if (bad !== undefined) return { ok: false, message: `masked or read-only path ${JSON.stringify(bad)}: only paths under /proc and /sys are supported` };
  return { ok: true, masked, readonly };
}
