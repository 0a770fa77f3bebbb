/**
 * Pod workers (the kubelet's pod_workers.go, simplified): one serial worker per pod UID; updates that arrive
 * while a sync runs are coalesced (the latest wins; a kill is sticky). Lifecycle: syncing → terminating
 * (containers stopped with the grace period) → terminated (cleanup) → finished. Each sync reads the status
 * cache newer than the end of the worker's previous sync (pod_workers.go: GetNewerThan(uid, lastSyncTime)), so
 * it never acts on stale runtime state. After a sync that changed the runtime (created, started or killed
 * something) only the pod's own entry counts, not the cache's global timestamp: the worker asks for a fresh
 * read of the pod (`refresh`, begun after the sync ended), waits for it to land, then takes the pod's entry if
 * newer than the sync (that read, or a newer one). A runtime event that is late (the evented PLEG's global
 * refresh ran ahead of it) can then no longer make the worker start a container again whose start it just made.
 * No read when the pod's entry already shows every change the sync made (the evented PLEG's entry built from the
 * runtime's event of the last one: SyncPodOutcome.shownBy, sync-shown.ts). That status is fresh-status.ts's.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { jitter } from '../util/jitter.ts';
import type { PodStatus, PodStatusCache, RuntimePod } from '../container/types.ts';
import type { PodStateProvider } from './pod-state-provider.ts';
import { FreshStatus, type SyncedWorker } from './fresh-status.ts';
import { isTerminated, requestTermination, type PodLifecycle, type WorkerPhase } from './pod-lifecycle.ts';
import type { KillPodOptions, PodStatusFunc, PodSyncHandlers, SyncPodOutcome, UpdatePodOptions, UpdateType } from './pod-worker-types.ts';

export type { KillPodOptions, PodStatusFunc, PodSyncHandlers, SyncPodOutcome, UpdatePodOptions, UpdateType, WorkerPhase };

interface WorkerState extends PodLifecycle, SyncedWorker {
  runningPod?: RuntimePod;
  pending?: UpdatePodOptions;
  /** While syncPod runs (isSyncingPod). */
  inSyncPod?: boolean;
  /** The update of the last step (kubelet activeUpdate): redelivered to an orphan whose step failed. */
  last?: UpdatePodOptions;
  working: boolean;
  gracePeriodOverride?: number;
  /** Status changes of the kills received (kubelet statusPostTerminating), applied in syncTerminatingPod. */
  statusPostTerminating?: PodStatusFunc[];
  idle: Array<() => void>;
}

export interface PodWorkersConfig {
  /** Resync after a successful sync (syncFrequency, 1 min). */
  resyncIntervalMs: number;
  /** Retry after a failed sync (backOffPeriod, 10 s). */
  backOffPeriodMs: number;
  /**
   * How long a worker waits for its pod's fresh read after an acting sync before it reads the pod again, and
   * as long again before it takes a full relist's word (the cache's global timestamp); default 5 s.
   */
  freshStatusWaitMs?: number;
}

/**
 * The kubelet's workerResyncIntervalJitterFactor and workerBackOffPeriodJitterFactor: a resync or a retry waits its
 * period plus a random 0–50 % of it (wait.Jitter), so pods started together do not resync together.
 */
const JITTER_FACTOR = 0.5;
const DEFAULT_FRESH_STATUS_WAIT_MS = 5_000;

export class PodWorkers implements PodStateProvider {
  private readonly workers = new Map<string, WorkerState>();
  /** syncKnownPods ran once (after every source was ready): a pod the workers do not know is not running. */
  private podsSynced = false;
  /** uid → when the pod is due for a resync. */
  private readonly queue = new Map<string, number>();
  private readonly fresh: FreshStatus;

  constructor(
    private readonly deps: {
      handlers: PodSyncHandlers;
      cache: PodStatusCache;
      clock: Clock;
      logger: Logger;
      /**
       * Re-reads the pod from the runtime into the cache, stamped when the read begins (PLEG updateCache); a read
       * already in flight that began after `after` may be joined.
       */
      refresh: (uid: string, pod: V1Pod, after: number) => Promise<void>;
      /** [0, 1) for the resync and retry jitter (Math.random). */
      random?: () => number;
    },
    private readonly config: PodWorkersConfig,
  ) {
    this.fresh = new FreshStatus({ ...deps, waitMs: config.freshStatusWaitMs ?? DEFAULT_FRESH_STATUS_WAIT_MS });
  }

  updatePod(o: UpdatePodOptions): void {
    const uid = o.pod?.metadata?.uid ?? o.runningPod?.uid ?? '';
    if (!uid) return;
    let w = this.workers.get(uid);
    if (w && w.phase === 'finished' && o.updateType === 'create') {
      this.workers.delete(uid);
      w = undefined;
    }
    if (!w) {
      w = { uid, working: false, phase: 'syncing', startedTerminating: false, deleted: false, evicted: false, lastSyncTime: Number.NEGATIVE_INFINITY, needsPodStatus: false, idle: [] };
      this.workers.set(uid, w);
    }
    if (w.phase === 'finished') return;
    if (o.pod) w.pod = o.pod;
    if (o.runningPod) w.runningPod = o.runningPod;
    if (o.updateType === 'kill' && w.phase === 'syncing') {
      requestTermination(w, o);
      w.gracePeriodOverride = o.gracePeriodOverride;
    }
    const statusFn = o.updateType === 'kill' ? o.killPodOptions?.podStatusFunc : undefined;
    if (statusFn) (w.statusPostTerminating ??= []).push(statusFn);
    w.pending = w.pending?.updateType === 'kill' ? { ...w.pending, pod: o.pod ?? w.pending.pod } : o;
    if (!w.working) void this.run(w);
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

  /** True while the pod's worker runs syncPod: a sync that creates or starts anything reads the pod after it. */
  isSyncingPod(uid: string): boolean {
    return this.workers.get(uid)?.inSyncPod === true;
  }

  podOf(uid: string): V1Pod | undefined {
    return this.workers.get(uid)?.pod;
  }

  // ---- PodStateProvider (pod_workers.go): a known pod by its worker's state, an unknown one by podsSynced ----

  isPodTerminationRequested(uid: string): boolean {
    const w = this.workers.get(uid);
    return w ? w.phase !== 'syncing' : false;
  }

  shouldPodContainersBeTerminating(uid: string): boolean {
    const w = this.workers.get(uid);
    return w ? w.startedTerminating : this.podsSynced;
  }

  shouldPodRuntimeBeRemoved(uid: string): boolean {
    const w = this.workers.get(uid);
    return w ? isTerminated(w) : this.podsSynced;
  }

  shouldPodContentBeRemoved(uid: string): boolean {
    const w = this.workers.get(uid);
    return w ? w.evicted || (w.deleted && isTerminated(w)) : this.podsSynced;
  }

  /** The pod's worker finished terminating it (kubelet IsPodKnownTerminated; false for an unknown pod). */
  isPodKnownTerminated(uid: string): boolean {
    const w = this.workers.get(uid);
    return w ? isTerminated(w) : false;
  }

  /**
   * Forgets finished workers whose pods are no longer desired (housekeeping, once every source is ready: from
   * then on a pod the workers do not know counts as not running, as the kubelet's SyncKnownPods). A worker
   * whose pod is no longer desired but that has not finished drives it to the end itself: no source will send
   * it another update, and the resync queue only syncs desired pods, so a failed termination step (a
   * StopPodSandbox whose network teardown failed) is retried here with the last update, at the first
   * housekeeping after its back-off (the kubelet's removeTerminatedWorker → requeueLastPodUpdate for orphans).
   */
  syncKnownPods(desired: ReadonlySet<string>): void {
    this.podsSynced = true;
    for (const [uid, w] of this.workers) {
      if (desired.has(uid) || w.working) continue;
      if (w.phase === 'finished') {
        this.workers.delete(uid);
        this.queue.delete(uid);
      } else if (w.last && (this.queue.get(uid) ?? 0) <= this.deps.clock.now()) {
        this.queue.delete(uid);
        w.pending = w.last;
        void this.run(w);
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
        w.last = u;
        await this.step(w, u);
      }
      w.pending = undefined;
    } finally {
      w.working = false;
      for (const r of w.idle.splice(0)) r();
    }
  }

  private async step(w: WorkerState, u: UpdatePodOptions): Promise<void> {
    // The worker has seen the termination request: syncPod will not run again, no container can start.
    if (w.phase !== 'syncing') w.startedTerminating = true;
    const { status, error } = await this.fresh.statusAfterSync(w);
    let requeue: number | undefined = this.config.resyncIntervalMs;
    let exact = false; // a sync's own requeueAfterMs (when a back-off ends) is kept as it is, not jittered
    let acted = false;
    let shownBy: ((s: PodStatus) => boolean) | undefined;
    try {
      // As the kubelet: never act on a status PLEG could not read (an empty one would recreate running pods).
      if (error && w.phase === 'syncing') throw new Error(`pod status unavailable: ${error.message}`);
      if (w.phase === 'syncing' && w.pod) {
        acted = true; // until the sync says otherwise: one that throws may have changed the runtime
        w.inSyncPod = true;
        const r = await this.deps.handlers.syncPod(u.updateType, w.pod, status).finally(() => (w.inSyncPod = false));
        acted = r.acted ?? false;
        shownBy = r.shownBy;
        if (r.requeueAfterMs !== undefined) [requeue, exact] = [r.requeueAfterMs, true];
        if (r.terminal && (w.phase as WorkerPhase) === 'syncing') w.phase = 'terminating';
      }
      if (w.phase === 'terminating') {
        w.startedTerminating = true;
        const fns = w.statusPostTerminating ?? [];
        const statusFn: PodStatusFunc | undefined = fns.length > 0 ? (st) => fns.forEach((fn) => fn(st)) : undefined;
        if (w.pod) await this.deps.handlers.syncTerminatingPod(w.pod, status, w.gracePeriodOverride, statusFn);
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
      exact = false;
    }
    w.lastSyncTime = this.deps.clock.now();
    w.needsPodStatus = acted;
    w.shownBy = acted ? shownBy : undefined;
    w.refreshed = acted && w.pod && !this.fresh.shown(w) ? this.fresh.refreshAfterSync(w, w.pod) : undefined;
    if (requeue !== undefined && w.phase !== 'finished') this.queue.set(w.uid, this.deps.clock.now() + (exact ? requeue : jitter(requeue, JITTER_FACTOR, this.deps.random)));
    else this.queue.delete(w.uid);
  }
}
