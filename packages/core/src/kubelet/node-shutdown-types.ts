/**
 * The node shutdown manager's progress as clients see it (the bus's `shutdown` event, tRPC shutdown.progress).
 * Types only, imported by events/types.ts; kept by node-shutdown-progress.ts.
 */

export type ShutdownPhase = 'idle' | 'shuttingDown' | 'done' | 'cancelled';

export interface ShutdownPodProgress {
  namespace: string;
  name: string;
  uid: string;
  /** min(the pod's terminationGracePeriodSeconds, its group's period). */
  gracePeriodSeconds: number;
  state: 'terminating' | 'terminated' | 'failed';
  startedAt: string;
  finishedAt?: string;
  error?: string;
}

export interface ShutdownGroupProgress {
  priority: number;
  shutdownGracePeriodSeconds: number;
  /** pending: not reached yet; running: its pods are being killed; done / timedOut: over (timedOut: the period ran out). */
  state: 'pending' | 'running' | 'done' | 'timedOut';
  startedAt?: string;
  finishedAt?: string;
  pods: ShutdownPodProgress[];
}

export interface ShutdownProgress {
  phase: ShutdownPhase;
  /** The node's Ready message while shutting down ("node is shutting down"). */
  message?: string;
  startTime?: string;
  endTime?: string;
  /** The configured groups, lowest priority first (the order they are shut down in). */
  groups: ShutdownGroupProgress[];
}
