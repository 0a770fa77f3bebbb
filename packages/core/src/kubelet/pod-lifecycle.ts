/**
 * A pod worker's lifecycle state (the kubelet's podSyncStatus): its phase and how its termination was asked
 * for. The pod workers keep one per pod UID and answer PodStateProvider from it.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { RuntimePod } from '../container/types.ts';

/** syncing → terminating (termination requested) → terminated (containers stopped) → finished (cleaned up). */
export type WorkerPhase = 'syncing' | 'terminating' | 'terminated' | 'finished';

export interface PodLifecycle {
  phase: WorkerPhase;
  /** The worker has picked up the termination request: syncPod will not run again (kubelet startedTerminating). */
  startedTerminating: boolean;
  /** Terminated because the pod is gone: deleted on the API server, or a runtime pod without config. */
  deleted: boolean;
  /** Terminated because the kubelet evicted the pod. */
  evicted: boolean;
}

/** The pod's containers are stopped (kubelet IsTerminated: terminatedAt set). */
export function isTerminated(s: PodLifecycle): boolean {
  return s.phase === 'terminated' || s.phase === 'finished';
}

/**
 * A kill reaches a syncing worker (pod_workers.go UpdatePod, "check for a transition to terminating"): an
 * orphaned runtime pod or a pod with a deletionTimestamp counts as deleted, else an eviction as evicted.
 */
export function requestTermination(s: PodLifecycle, o: { pod?: V1Pod; runningPod?: RuntimePod; killPodOptions?: { evict?: boolean } }): void {
  s.phase = 'terminating';
  if (!o.pod && o.runningPod) s.deleted = true;
  else if (o.pod?.metadata?.deletionTimestamp) s.deleted = true;
  else if (o.killPodOptions?.evict) s.evicted = true;
}
