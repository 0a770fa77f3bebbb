/**
 * Pod workers (the kubelet's pod_workers.go, simplified): one serial worker per pod UID; updates that arrive
 * while a sync runs are coalesced (the latest wins; a kill is sticky). Lifecycle: syncing → terminating
 * (containers stopped with the grace period) → terminated (cleanup) → finished. Each sync reads the status
 * cache newer than the worker's previous sync, so it never acts on stale runtime state.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { PodStatus, PodStatusCache, RuntimePod } from '../container/types.ts';

export type UpdateType = 'create' | 'update' | 'sync' | 'kill';

export interface UpdatePodOptions {
  updateType: UpdateType;
  /** The desired pod; absent for runtime-only (orphaned) pods being killed. */
  pod?: V1Pod;
  /** For orphans: the runtime's view of the pod to kill. */
  runningPod?: RuntimePod;
  /** Seconds, overriding the pod's terminationGracePeriodSeconds. */
  gracePeriodOverride?: number;
}

export interface SyncPodOutcome {
  /** The pod reached a terminal phase: terminate it. */
  terminal: boolean;
  /** Sync again after this many ms (back-off retry); default: the resync interval. */
  requeueAfterMs?: number;
}

export interface PodSyncHandlers {
  syncPod(type: UpdateType, pod: V1Pod, status: PodStatus): Promise<SyncPodOutcome>;
  syncTerminatingPod(pod: V1Pod, status: PodStatus, gracePeriodOverride?: number): Promise<void>;
  syncTerminatingRuntimePod(running: RuntimePod, gracePeriodOverride?: number): Promise<void>;
  syncTerminatedPod(pod: V1Pod, status: PodStatus): Promise<void>;
}

export type WorkerPhase = 'syncing' | 'terminating' | 'terminated' | 'finished';

interface WorkerState {
  uid: string;
  pod?: V1Pod;
  runningPod?: RuntimePod;
  pending?: UpdatePodOptions;
  working: boolean;
  phase: WorkerPhase;
  gracePeriodOverride?: number;
  lastSyncTime: number;
  idle: Array<() => void>;
}

export interface PodWorkersConfig {
  /** Resync after a successful sync (syncFrequency, 1 min). */
  resyncIntervalMs: number;
  /** Retry after a failed sync (backOffPeriod, 10 s). */
  backOffPeriodMs: number;
}

export class PodWorkers {
  private readonly workers = new Map<string, WorkerState>();
  /** uid → when the pod is due for a resync. */
  private readonly queue = new Map<string, number>();

  constructor(
    private readonly deps: { handlers: PodSyncHandlers; cache: PodStatusCache; clock: Clock; logger: Logger },
    private readonly config: PodWorkersConfig,
  ) {}

  updatePod(o: UpdatePodOptions): void {
    const uid = o.pod?.metadata?.uid ?? o.runningPod?.uid ?? '';
    if (!uid) return;
    let w = this.workers.get(uid);
    if (w && w.phase === 'finished' && o.updateType === 'create') {
      this.workers.delete(uid);
      w = undefined;
    }
    if (!w) {
      w = { uid, working: false, phase: 'syncing', lastSyncTime: Number.NEGATIVE_INFINITY, idle: [] };
      this.workers.set(uid, w);
    }
    if (w.phase === 'finished') return;
    if (o.pod) w.pod = o.pod;
    if (o.runningPod) w.runningPod = o.runningPod;
    if (o.updateType === 'kill' && w.phase === 'syncing') {
      w.phase = 'terminating';
      w.gracePeriodOverride = o.gracePeriodOverride;
    }
    w.pending = w.pending?.updateType === 'kill' ? { ...w.pending, pod: o.pod ?? w.pending.pod } : o;
    if (!w.working) void this.run(w);
  }

  /** The worker's lifecycle phase (undefined when the pod has no worker). */
  phaseOf(uid: string): WorkerPhase | undefined {
    return this.workers.get(uid)?.phase;
  }

  isWorking(uid: string): boolean {
    return this.workers.get(uid)?.working ?? false;
  }

  knownUids(): string[] {
    return [...this.workers.keys()];
  }

  /** Pods whose resync time has come (removed from the queue). */
  takeDue(now: number): string[] {
    const due: string[] = [];
    for (const [uid, at] of this.queue) {
      if (at <= now) {
        due.push(uid);
        this.queue.delete(uid);
      }
    }
    return due;
  }

  podOf(uid: string): V1Pod | undefined {
    return this.workers.get(uid)?.pod;
  }

  /** Forgets finished workers whose pods are no longer desired (housekeeping). */
  syncKnownPods(desired: ReadonlySet<string>): void {
    for (const [uid, w] of this.workers) {
      if (w.phase === 'finished' && !desired.has(uid) && !w.working) {
        this.workers.delete(uid);
        this.queue.delete(uid);
      }
    }
  }

  /** Resolves when the worker for uid has nothing pending or running (tests, shutdown). */
  waitIdle(uid: string): Promise<void> {
    const w = this.workers.get(uid);
    if (!w || (!w.working && !w.pending)) return Promise.resolve();
    return new Promise((r) => w.idle.push(r));
  }

  private async run(w: WorkerState): Promise<void> {
    w.working = true;
    try {
      while (w.pending && w.phase !== 'finished') {
        const u = w.pending;
        w.pending = undefined;
        await this.step(w, u);
      }
      w.pending = undefined;
    } finally {
      w.working = false;
      for (const r of w.idle.splice(0)) r();
    }
  }

  private async step(w: WorkerState, u: UpdatePodOptions): Promise<void> {
    const { status, error } = await this.deps.cache.getNewerThan(w.uid, w.lastSyncTime);
    let requeue: number | undefined = this.config.resyncIntervalMs;
    try {
      // As the kubelet: never act on a status PLEG could not read (an empty one would recreate running pods).
      if (error && w.phase === 'syncing') throw new Error(`pod status unavailable: ${error.message}`);
      if (w.phase === 'syncing' && w.pod) {
        const r = await this.deps.handlers.syncPod(u.updateType, w.pod, status);
        if (r.requeueAfterMs !== undefined) requeue = r.requeueAfterMs;
        if (r.terminal && (w.phase as WorkerPhase) === 'syncing') w.phase = 'terminating';
      }
      if (w.phase === 'terminating') {
        if (w.pod) await this.deps.handlers.syncTerminatingPod(w.pod, status, w.gracePeriodOverride);
        else if (w.runningPod) await this.deps.handlers.syncTerminatingRuntimePod(w.runningPod, w.gracePeriodOverride);
        w.phase = 'terminated';
      }
      if (w.phase === 'terminated') {
        if (w.pod) await this.deps.handlers.syncTerminatedPod(w.pod, status);
        w.phase = 'finished';
        requeue = undefined;
      }
    } catch (err) {
      this.deps.logger.warn('Error syncing pod, skipping', { podUid: w.uid, err: String(err) });
      requeue = this.config.backOffPeriodMs;
    }
    w.lastSyncTime = this.deps.clock.now();
    if (requeue !== undefined && w.phase !== 'finished') this.queue.set(w.uid, this.deps.clock.now() + requeue);
    else this.queue.delete(w.uid);
  }
}
