/**
 * Pod ranking for eviction (pkg/kubelet/eviction/helpers.go, current): the first pod of the sorted list is
 * evicted first.
 * - memory: pods without stats first; then pods whose working set exceeds their memory request; then lower
 *   priority; then larger usage above request.
 * - disk (nodefs/imagefs, bytes or inodes): the same with ephemeral-storage usage and request.
 * - pid: lower priority, then more processes.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { computePodRequests } from '../lifecycle/pod-requests.ts';
import type { PodUsage, PodUsageLookup, Signal } from './types.ts';

type Cmp = (a: V1Pod, b: V1Pod) => number;

const cmpBool = (a: boolean, b: boolean): number => (a === b ? 0 : a ? -1 : 1);

function orderedBy(...cmps: Cmp[]): Cmp {
  return (a, b) => {
    for (const c of cmps) {
      const r = c(a, b);
      if (r !== 0) return r;
    }
    return 0;
  };
}

const priority: Cmp = (a, b) => (a.spec?.priority ?? 0) - (b.spec?.priority ?? 0);

function request(pod: V1Pod, resource: 'memory' | 'ephemeral-storage'): number {
  const r = computePodRequests(pod);
  if (!r.ok) return 0;
  return resource === 'memory' ? r.requests.memoryBytes : (r.requests.other['ephemeral-storage'] ?? 0);
}

type UsageKey = keyof PodUsage;

/** Pods without the stat first, then pods whose usage exceeds the request. */
function exceedsRequest(stats: PodUsageLookup, key: UsageKey, resource: 'memory' | 'ephemeral-storage' | undefined): Cmp {
  return (a, b) => {
    const ua = stats(a)?.[key];
    const ub = stats(b)?.[key];
    if (ua === undefined || ub === undefined) return cmpBool(ua === undefined, ub === undefined);
    if (!resource) return 0;
    return cmpBool(ua > request(a, resource), ub > request(b, resource));
  };
}

/** Larger usage above request first. */
function usageAboveRequest(stats: PodUsageLookup, key: UsageKey, resource: 'memory' | 'ephemeral-storage' | undefined): Cmp {
  return (a, b) => {
    const ua = stats(a)?.[key];
    const ub = stats(b)?.[key];
    if (ua === undefined || ub === undefined) return cmpBool(ua === undefined, ub === undefined);
    const ra = resource ? request(a, resource) : 0;
    const rb = resource ? request(b, resource) : 0;
    return ub - rb - (ua - ra);
  };
}

export function rankFunc(signal: Signal, stats: PodUsageLookup): Cmp {
  switch (signal) {
    case 'memory.available':
      return orderedBy(exceedsRequest(stats, 'memoryWorkingSetBytes', 'memory'), priority, usageAboveRequest(stats, 'memoryWorkingSetBytes', 'memory'));
    case 'nodefs.available':
    case 'imagefs.available':
      return orderedBy(exceedsRequest(stats, 'diskBytes', 'ephemeral-storage'), priority, usageAboveRequest(stats, 'diskBytes', 'ephemeral-storage'));
    case 'nodefs.inodesFree':
    case 'imagefs.inodesFree':
      return orderedBy(exceedsRequest(stats, 'inodes', undefined), priority, usageAboveRequest(stats, 'inodes', undefined));
    case 'pid.available':
      return orderedBy(priority, (a, b) => (stats(b)?.processes ?? 0) - (stats(a)?.processes ?? 0));
  }
}

/** A stable sort of the pods, most evictable first. */
export function rankPods(pods: V1Pod[], signal: Signal, stats: PodUsageLookup): V1Pod[] {
  return [...pods].sort(rankFunc(signal, stats));
}
