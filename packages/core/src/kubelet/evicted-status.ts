/**
 * A StatusManager view that keeps evicted pods Failed with reason Evicted, the eviction message and a
 * DisruptionTarget condition (TerminationByKubelet), whatever the pod handlers generate after the kill.
 */
import type { V1Pod, V1PodCondition, V1PodStatus } from '@kubernetes/client-node';
import type { StatusManager } from '../status/types.ts';

export type EvictionLookup = (uid: string) => { reason: string; message: string } | undefined;

export function evictedStatus(s: V1PodStatus, e: { reason: string; message: string }, nowMs: number): V1PodStatus {
  const others = (s.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget');
  const prev = (s.conditions ?? []).find((c) => c.type === 'DisruptionTarget');
  const cond: V1PodCondition = {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'TerminationByKubelet',
    message: e.message,
    lastTransitionTime: prev?.lastTransitionTime ?? new Date(nowMs),
  };
  return { ...s, phase: 'Failed', reason: e.reason, message: e.message, conditions: [...others, cond] };
}

export function wrapStatusManager(inner: StatusManager, lookup: EvictionLookup, now: () => number): StatusManager {
  const overlay = (pod: V1Pod, s: V1PodStatus): V1PodStatus => {
    const e = lookup(pod.metadata?.uid ?? '');
    return e ? evictedStatus(s, e, now()) : s;
  };
  return {
    start: () => inner.start(),
    stop: () => inner.stop(),
    setPodStatus: (pod, s) => inner.setPodStatus(pod, overlay(pod, s)),
    getPodStatus: (uid) => inner.getPodStatus(uid),
    getVersionedStatus: (uid) => inner.getVersionedStatus(uid),
    setContainerReadiness: (uid, name, ready) => inner.setContainerReadiness(uid, name, ready),
    setContainerStartup: (uid, name, started) => inner.setContainerStartup(uid, name, started),
    terminatePod: (pod) => inner.terminatePod(pod),
    removeOrphanedStatuses: (keep) => inner.removeOrphanedStatuses(keep),
  };
}
