/**
 * The kubelet's activeDeadlineHandler (pkg/kubelet/active_deadline.go): a pod whose spec.activeDeadlineSeconds
 * has passed since its status startTime is synced on the next sync tick (ShouldSync, a sync-loop input) and its
 * generated status becomes Failed / DeadlineExceeded (ShouldEvict), so the pod worker terminates it and stops its
 * containers. Time comes from the injected clock.
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { EventRecorder } from '../events/recorder.ts';
import { podRef } from '../events/recorder.ts';
import type { Clock } from '../util/clock.ts';

export const DEADLINE_EXCEEDED_REASON = 'DeadlineExceeded';
export const DEADLINE_EXCEEDED_MESSAGE = 'Pod was active on the node longer than the specified deadline';

/** The kubelet's lifecycle.ShouldEvictResponse. */
export type ShouldEvictResponse = { evict: false } | { evict: true; reason: string; message: string };

/** The kubelet's lifecycle.PodSyncLoopHandler and PodSyncHandler, one object here. */
export interface PodSyncHandler {
  /** The pod must be synced now (read on every sync tick). */
  shouldSync(pod: V1Pod): boolean;
  /** The pod must be failed with this reason and message (read whenever its API status is generated). */
  shouldEvict(pod: V1Pod): ShouldEvictResponse;
}

export interface ActiveDeadlineDeps {
  clock: Clock;
  /** The status manager: the pod's startTime (the pod's own status when it has none). */
  statusProvider: { getPodStatus(uid: string): V1PodStatus | undefined };
  recorder: Pick<EventRecorder, 'event'>;
}

export class ActiveDeadlineHandler implements PodSyncHandler {
  constructor(private readonly deps: ActiveDeadlineDeps) {}

  shouldSync(pod: V1Pod): boolean {
    return this.pastActiveDeadline(pod);
  }

  shouldEvict(pod: V1Pod): ShouldEvictResponse {
    if (!this.pastActiveDeadline(pod)) return { evict: false };
    // The kubelet records the event on every call; here once, when the pod's status is not yet failed for it.
    if (this.deps.statusProvider.getPodStatus(pod.metadata?.uid ?? '')?.reason !== DEADLINE_EXCEEDED_REASON) {
      this.deps.recorder.event(podRef(pod), 'Normal', DEADLINE_EXCEEDED_REASON, DEADLINE_EXCEEDED_MESSAGE);
    }
    return { evict: true, reason: DEADLINE_EXCEEDED_REASON, message: DEADLINE_EXCEEDED_MESSAGE };
  }

  private pastActiveDeadline(pod: V1Pod): boolean {
    const deadline = pod.spec?.activeDeadlineSeconds;
    if (deadline === undefined || deadline === null) return false;
    const status = this.deps.statusProvider.getPodStatus(pod.metadata?.uid ?? '') ?? pod.status;
    const start = status?.startTime ? new Date(status.startTime).getTime() : Number.NaN;
    if (!Number.isFinite(start)) return false;
    return this.deps.clock.now() - start >= deadline * 1000;
  }
}
