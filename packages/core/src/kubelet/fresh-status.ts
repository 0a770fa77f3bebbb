/**
 * The status a pod worker's next sync acts on (pod-workers.ts): newer than the end of its last sync and, after a sync
 * that changed the runtime, the pod's own fresh read (begun after the sync) or an entry that shows every change the
 * sync made (the evented PLEG's entry built from the runtime's event of the last one: SyncPodOutcome.shownBy,
 * sync-shown.ts), never the cache's global timestamp alone.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { PodStatus, PodStatusCache } from '../container/types.ts';
import type { WorkerPhase } from './pod-lifecycle.ts';

/** What of a pod worker's state the fresh status depends on. */
export interface SyncedWorker {
  uid: string;
  pod?: V1Pod;
  phase: WorkerPhase;
  lastSyncTime: number;
  /** The last sync acted: the next one needs a status of this pod read after it (see the file comment). */
  needsPodStatus: boolean;
  /** That read, under way (resolves when it is in the cache, or failed). */
  refreshed?: Promise<void>;
  /** The last sync's changes are shown by a status that passes this (SyncPodOutcome.shownBy): no read needed. */
  shownBy?: (status: PodStatus) => boolean;
}

export class FreshStatus {
  constructor(
    private readonly deps: {
      cache: PodStatusCache;
      clock: Clock;
      logger: Logger;
      /** PodWorkers' refresh: the pod read from the runtime into the cache, stamped when the read begins. */
      refresh: (uid: string, pod: V1Pod, after: number) => Promise<void>;
      /** How long to wait for the fresh read before reading again, and as long again before taking a relist's word. */
      waitMs: number;
    },
  ) {}

  /**
   * The status for the next sync: newer than the end of the last one. After an acting sync, the fresh read
   * first (until it lands, an entry newer than the sync may still be an old read patched later), then the
   * pod's own entry. Never an endless wait: if that entry is not there in time (the read was lost or its
   * entry removed), the pod is read again; if that does not land either, a full relist begun after the sync
   * will do (the global timestamp), as for a worker whose last sync did not act.
   */
  async statusAfterSync(w: SyncedWorker): Promise<{ status: PodStatus; error?: Error }> {
    const { cache } = this.deps;
    if (!w.needsPodStatus) return cache.getNewerThan(w.uid, w.lastSyncTime);
    const shown = await this.shownOrRead(w);
    if (shown) return shown;
    const own = cache.getNewerThan(w.uid, w.lastSyncTime, { podEntryOnly: true });
    const first = await this.within(own);
    if (first) return first;
    const modified = cache.get(w.uid).modified;
    this.deps.logger.warn('No fresh pod status after a sync, reading the pod again', { podUid: w.uid, waitedMs: this.deps.waitMs, lastSyncTime: w.lastSyncTime, entryModified: modified });
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
  shown(w: SyncedWorker): { status: PodStatus } | undefined {
    if (!w.shownBy) return undefined;
    const entry = this.deps.cache.get(w.uid);
    return !entry.error && w.shownBy(entry.status) ? { status: entry.status } : undefined;
  }

  /**
   * Waits for the fresh read to land, or, first, for an entry of the pod that shows the sync's changes (its event
   * may arrive after StartContainer returned, while the read is under way); undefined once the read landed.
   */
  private async shownOrRead(w: SyncedWorker): Promise<{ status: PodStatus } | undefined> {
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

  /** p's value if it settles within the wait (injected clock), else undefined. */
  private async within<T>(p: Promise<T>): Promise<T | undefined> {
    const ac = new AbortController();
    const timeout = this.deps.clock.sleep(this.deps.waitMs, ac.signal).then(
      () => undefined,
      () => undefined,
    );
    try {
      return await Promise.race([p, timeout]);
    } finally {
      ac.abort();
    }
  }

  private async readPod(w: SyncedWorker, pod: V1Pod, after: number): Promise<void> {
    try {
      await this.deps.refresh(w.uid, pod, after);
    } catch (err) {
      this.deps.logger.warn('Failed to refresh the pod status after a sync', { podUid: w.uid, err: String(err) });
    }
  }

  /** The fresh read after an acting sync: begun once the clock has moved past the sync's end, so it is newer. */
  async refreshAfterSync(w: SyncedWorker, pod: V1Pod): Promise<void> {
    const syncedAt = w.lastSyncTime;
    // A loop, not one sleep: a 1 ms timer may fire before the wall clock has moved (timers run on the monotonic
    // clock); a read stamped with the sync's own end is no newer than it, and the worker would wait for ever.
    while (this.deps.clock.now() <= syncedAt) await this.deps.clock.sleep(1);
    // The runtime's event of the sync's last change came meanwhile (it follows the call's reply): it stands for the read.
    if (w.lastSyncTime !== syncedAt || w.phase === 'finished' || this.shown(w)) return;
    await this.readPod(w, pod, syncedAt);
  }
}
