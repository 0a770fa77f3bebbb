/**
 * The kubelet's QoS cgroup tree and the numeric conversions it uses:
 *   /kubepods                 Guaranteed pods live directly here (pod<uid>)
 *   /kubepods/burstable       Burstable pods
 *   /kubepods/besteffort      BestEffort pods
 * shares from millicores (min 2, max 262144), CFS quota from millicores (min 1000 µs), and the
 * cgroup v2 weight conversion runc and the kubelet use.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { getPodQOS } from '../api/qos.ts';
import type { QOSClass } from '../api/types.ts';
import type { CgroupName } from './types.ts';

export const KUBEPODS = '/kubepods';
export const MIN_SHARES = 2;
export const MAX_SHARES = 262144;
export const SHARES_PER_CPU = 1024;
export const MILLI_CPU_TO_CPU = 1000;
export const QUOTA_PERIOD = 100000;
export const MIN_QUOTA_PERIOD = 1000;

/** Joins a root ('/', '/custom') and a logical name ('/kubepods/...'). */
export function joinCgroup(root: string | undefined, name: CgroupName): CgroupName {
  const r = (root ?? '/').replace(/\/+$/, '');
  const n = name.startsWith('/') ? name : `/${name}`;
  const joined = `${r}${n}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : '/';
}

export function qosCgroupName(qos: QOSClass, root?: string): CgroupName {
  switch (qos) {
    case 'Guaranteed':
      return joinCgroup(root, KUBEPODS);
    case 'Burstable':
      return joinCgroup(root, `${KUBEPODS}/burstable`);
    case 'BestEffort':
      return joinCgroup(root, `${KUBEPODS}/besteffort`);
  }
}

/** `/kubepods[/burstable|/besteffort]/pod<uid>`: the cgroup_parent the kubelet hands to the runtime. */
export function podCgroupName(pod: V1Pod, root?: string): CgroupName {
  return `${qosCgroupName(getPodQOS(pod), root).replace(/\/$/, '')}/pod${pod.metadata?.uid ?? ''}`;
}

/** millicores → cpu.shares (MilliCPUToShares). 0 → MIN_SHARES. */
export function milliCpuToShares(milliCpu: number): number {
  if (milliCpu <= 0) return MIN_SHARES;
  const shares = Math.floor((milliCpu * SHARES_PER_CPU) / MILLI_CPU_TO_CPU);
  return Math.min(MAX_SHARES, Math.max(MIN_SHARES, shares));
}

/** millicores → CFS quota for a period (MilliCPUToQuota). 0 → 0 (no quota). */
export function milliCpuToQuota(milliCpu: number, period = QUOTA_PERIOD): number {
  if (milliCpu <= 0) return 0;
  const quota = Math.floor((milliCpu * period) / MILLI_CPU_TO_CPU);
  return Math.max(MIN_QUOTA_PERIOD, quota);
}

/** cpu.shares (v1, 2..262144) → cpu.weight (v2, 1..10000): 1 + ((shares − 2) × 9999) / 262142. */
export function sharesToWeight(shares: number): number {
  if (shares <= 0) return 0;
  return 1 + Math.floor(((shares - 2) * 9999) / 262142);
}

/** The inverse, for reading v2 back as shares (lossy). */
export function weightToShares(weight: number): number {
  if (weight <= 0) return 0;
  return 2 + Math.floor(((weight - 1) * 262142) / 9999);
}

export { parsePodCgroup } from './types.ts';
