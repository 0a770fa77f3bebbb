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
 * runtime's event of the last one: SyncPodOutcome.shownBy, sync-shown.ts).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { PodStatus, PodStatusCache, RuntimePod } from '../container/types.ts';
import type { PodStateProvider } from './pod-state-provider.ts';
import { isTerminated, requestTermination, type PodLifecycle, type WorkerPhase } from './pod-lifecycle.ts';
import type { KillPodOptions, PodStatusFunc, PodSyncHandlers, SyncPodOutcome, UpdatePodOptions, UpdateType } from './pod-worker-types.ts';

export type { KillPodOptions, PodStatusFunc, PodSyncHandlers, SyncPodOutcome, UpdatePodOptions, UpdateType, WorkerPhase };

interface WorkerState extends PodLifecycle {
  uid: string;
  pod?: V1Pod;
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
  lastSyncTime: number;
  /** The last sync acted: the next one needs a status of this pod read after it (see the file comment). */
  needsPodStatus: boolean;
  /** That read, under way (resolves when it is in the cache, or failed). */
  refreshed?: Promise<void>;
  /** The last sync's changes are shown by a status that passes this (SyncPodOutcome.shownBy): no read needed. */
  shownBy?: (status: PodStatus) => boolean;
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

const DEFAULT_FRESH_STATUS_WAIT_MS = 5_000;

export class PodWorkers implements PodStateProvider {
  private readonly workers = new Map<string, WorkerState>();
  /** syncKnownPods ran once (after every source was ready): a pod the workers do not know is not running. */
  private podsSynced = false;
  /** uid → when the pod is due for a resync. */
  private readonly queue = new Map<string, number>();

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
    },
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
    const { status, error } = await this.statusAfterSync(w);
    let requeue: number | undefined = this.config.resyncIntervalMs;
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
        if (r.requeueAfterMs !== undefined) requeue = r.requeueAfterMs;
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
    }
    w.lastSyncTime = this.deps.clock.now();
    w.needsPodStatus = acted;
    w.shownBy = acted ? shownBy : undefined;
    w.refreshed = acted && w.pod && !this.shown(w) ? this.refreshAfterSync(w, w.pod) : undefined;
    if (requeue !== undefined && w.phase !== 'finished') this.queue.set(w.uid, this.deps.clock.now() + requeue);
    else this.queue.delete(w.uid);
  }

  /**
   * The status for the next sync: newer than the end of the last one. After an acting sync, the fresh read
   * first (until it lands, an entry newer than the sync may still be an old read patched later), then the
   * pod's own entry. Never an endless wait: if that entry is not there in time (the read was lost or its
   * entry removed), the pod is read again; if that does not land either, a full relist begun after the sync
   * will do (the global timestamp), as for a worker whose last sync did not act.
   */
  private async statusAfterSync(w: WorkerState): Promise<{ status: PodStatus; error?: Error }> {
    const { cache } = this.deps;
    if (!w.needsPodStatus) return cache.getNewerThan(w.uid, w.lastSyncTime);
    const shown = await this.shownOrRead(w);
    if (shown) return shown;
    const own = cache.getNewerThan(w.uid, w.lastSyncTime, { podEntryOnly: true });
    const first = await this.within(own);
    if (first) return first;
    const modified = cache.get(w.uid).modified;
    this.deps.logger.warn('No fresh pod status after a sync, reading the pod again', { podUid: w.uid, waitedMs: this.waitMs, lastSyncTime: w.lastSyncTime, entryModified: modified });
    if (w.pod) await this.readPod(w, w.pod, this.deps.clock.now());
    const second = await this.within(own);
    if (second) return second;
    this.deps.logger.warn('Still no fresh pod status, waiting for a relist', { podUid: w.uid });
    return Promise.race([own, cache.getNewerThan(w.uid, w.lastSyncTime)]);
  }

  /**
   * The pod's cached entry when it shows every change of the last sync (the runtime's event of its last change
   * arrived: the evented PLEG's entry, built from that event, stands for the read; sync-shown.ts).
   */
  private shown(w: WorkerState): { status: PodStatus } | undefined {
    if (!w.shownBy) return undefined;
    const entry = this.deps.cache.get(w.uid);
    return !entry.error && w.shownBy(entry.status) ? { status: entry.status } : undefined;
  }

  /**
   * Waits for the fresh read to land, or, first, for an entry of the pod that shows the sync's changes (its event
   * may arrive after StartContainer returned, while the read is under way); undefined once the read landed.
   */
  private async shownOrRead(w: WorkerState): Promise<{ status: PodStatus } | undefined> {
    let shown = this.shown(w);
    let landed = false;
    const read = (w.refreshed ?? Promise.resolve()).then(() => (landed = true));
    while (!shown && w.shownBy && !landed) {
      await Promise.race([read, this.deps.cache.getNewerThan(w.uid, this.deps.cache.get(w.uid).modified, { podEntryOnly: true })]);
      shown = this.shown(w);
    }
    await (shown ? undefined : read);
    return shown;
  }

  private get waitMs(): number {
    return this.config.freshStatusWaitMs ?? DEFAULT_FRESH_STATUS_WAIT_MS;
  }

  /** p's value if it settles within the wait (injected clock), else undefined. */
  private async within<T>(p: Promise<T>): Promise<T | undefined> {
    const ac = new AbortController();
    const timeout = this.deps.clock.sleep(this.waitMs, ac.signal).then(
      () => undefined,
      () => undefined,
    );
    try {
      return await Promise.race([p, timeout]);
    } finally {
      ac.abort();
    }
  }

  private async readPod(w: WorkerState, pod: V1Pod, after: number): Promise<void> {
    try {
      await this.deps.refresh(w.uid, pod, after);
    } catch (err) {
      this.deps.logger.warn('Failed to refresh the pod status after a sync', { podUid: w.uid, err: String(err) });
    }
  }

  /** The fresh read after an acting sync: begun once the clock has moved past the sync's end, so it is newer. */
  private async refreshAfterSync(w: WorkerState, pod: V1Pod): Promise<void> {
    const syncedAt = w.lastSyncTime;
    // A loop, not one sleep: a 1 ms timer may fire before the wall clock has moved (timers run on the monotonic
    // clock); a read stamped with the sync's own end is no newer than it, and the worker would wait for ever.
    while (this.deps.clock.now() <= syncedAt) await this.deps.clock.sleep(1);
    // The runtime's event of the sync's last change came meanwhile (it follows the call's reply): it stands for the read.
    if (w.lastSyncTime !== syncedAt || w.phase === 'finished' || this.shown(w)) return;
    await this.readPod(w, pod, syncedAt);
  }
}
