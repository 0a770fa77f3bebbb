/** The status manager: versioned pod status cache, the source of truth for pod status inside the kubelet. */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { PodRef } from '../events/types.ts';

export interface VersionedPodStatus {
  pod: PodRef;
  status: V1PodStatus;
  /** Bumped on every real change (not on lastProbeTime-only churn). Starts at 1. */
  version: number;
  /** Clock.now() when this version was recorded. */
  at: number;
}

/** Pushes statuses somewhere (the API server later; a no-op in standalone mode). */
export interface StatusSyncer {
  sync(v: VersionedPodStatus): Promise<void>;
  /** The pod left the node; forget it. */
  forget?(uid: string): void;
}

export interface StatusManager {
  start(): void;
  stop(): void;
  /** Keeps the status (normalised: conditions' lastTransitionTime kept when unchanged). Returns the version. */
  setPodStatus(pod: V1Pod, status: V1PodStatus): number;
  getPodStatus(uid: string): V1PodStatus | undefined;
  getVersionedStatus(uid: string): VersionedPodStatus | undefined;
  /** For the prober: flips a container's ready flag and recomputes ContainersReady/Ready. */
  setContainerReadiness(podUid: string, containerName: string, ready: boolean): void;
  /** For the prober: flips a container's started flag. */
  setContainerStartup(podUid: string, containerName: string, started: boolean): void;
  /** TerminatePod: the pod's workers finished; containers not terminated are reported failed, the phase terminal. */
  terminatePod(pod: V1Pod): void;
  /** Drops cached statuses of pods whose UID is not in `keep`. */
  removeOrphanedStatuses(keep: ReadonlySet<string>): void;
}

/** Inputs to the pure condition/phase generators. */
export type ConditionType = 'PodReadyToStartContainers' | 'Initialized' | 'ContainersReady' | 'Ready' | 'PodScheduled';
