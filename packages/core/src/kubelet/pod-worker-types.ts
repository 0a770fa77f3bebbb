/**
 * What flows into and out of the pod workers: updates (with the kubelet's KillPodOptions) and the sync handlers
 * they call for each lifecycle step (kubelet.go SyncPod / SyncTerminatingPod / SyncTerminatingRuntimePod /
 * SyncTerminatedPod).
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { PodStatus, RuntimePod } from '../container/types.ts';

export type UpdateType = 'create' | 'update' | 'sync' | 'kill';

export interface UpdatePodOptions {
  updateType: UpdateType;
  /** The desired pod; absent for runtime-only (orphaned) pods being killed. */
  pod?: V1Pod;
  /** For orphans: the runtime's view of the pod to kill. */
  runningPod?: RuntimePod;
  /** Seconds, overriding the pod's terminationGracePeriodSeconds. */
  gracePeriodOverride?: number;
  /** For kills: how the pod is killed (the kubelet's KillPodOptions). */
  killPodOptions?: KillPodOptions;
}

export interface KillPodOptions {
  /** The kubelet evicts the pod: its content may be removed as soon as termination was requested. */
  evict?: boolean;
  /**
   * The status change the kill carries (e.g. Failed / Evicted, Failed / DeadlineExceeded): applied to the pod's
   * status when the worker terminates it, before its containers are stopped (kubelet KillPodOptions.PodStatusFunc).
   */
  podStatusFunc?: PodStatusFunc;
}

export type PodStatusFunc = (status: V1PodStatus) => void;

export interface SyncPodOutcome {
  /** The pod reached a terminal phase: terminate it. */
  terminal: boolean;
  /** Sync again after this many ms (back-off retry); default: the resync interval. */
  requeueAfterMs?: number;
  /** The sync changed the runtime (a sandbox or container created, started or killed). */
  acted?: boolean;
  /**
   * For an acting sync: holds for a status that shows every change it made (sync-shown.ts). The pod's cached entry
   * then stands for the fresh read after the sync.
   */
  shownBy?: (status: PodStatus) => boolean;
}

export interface PodSyncHandlers {
  syncPod(type: UpdateType, pod: V1Pod, status: PodStatus): Promise<SyncPodOutcome>;
  syncTerminatingPod(pod: V1Pod, status: PodStatus, gracePeriodOverride?: number, podStatusFunc?: PodStatusFunc): Promise<void>;
  syncTerminatingRuntimePod(running: RuntimePod, gracePeriodOverride?: number): Promise<void>;
  syncTerminatedPod(pod: V1Pod, status: PodStatus): Promise<void>;
}
