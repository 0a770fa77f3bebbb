/**
 * The flight recorder: every lifecycle decision the node takes, kept in SQLite under <root-dir>/flight-recorder/
 * (store.ts), bounded by age and size. Never on the hot path: bus events and probe runs become rows in a bounded
 * in-memory queue (full: the oldest row is dropped and counted, the agent is never blocked), written in one
 * transaction every flushMs; trimming (age, then size, oldest first) runs every trimEveryMs.
 */
import type { EventBus, NodeletEvent } from '@nodelet/core/events';
import type { ProbesApi } from '@nodelet/core/kubelet';
import type { Clock, Logger } from '@nodelet/core/util';
import { entriesFromEvent, OomSeen } from './from-events.ts';
import { checkQuery } from './query.ts';
import { BackOffSpans, ProbeSpans, type ProbeRunInput } from './spans.ts';
import { pendingEntry, RecorderStore, type OpenDatabase, type PendingRow } from './store.ts';
import type { FlightRecorderApi, RecorderEntry, RecorderEntryInput, RecorderFollow, RecorderPage, RecorderQuery, RecorderStats } from './types.ts';

export interface FlightRecorderConfig {
  /** The database file (<root-dir>/flight-recorder/recorder.db). */
  path: string;
  /** --flight-recorder-max-age (default 168h). */
  maxAgeMs: number;
  /** --flight-recorder-max-size (default 64Mi). */
  maxBytes: number;
  /** Rows waiting for the next write (default 10000). */
  queueCapacity?: number;
  /** Write period (default 1000 ms; 0: only flush() writes, for tests). */
  flushMs?: number;
  /** Trim period (default 30 s; trimming also runs at start). */
  trimEveryMs?: number;
}

export interface FlightRecorderDeps {
  clock: Clock;
  logger: Logger;
  /** better-sqlite3's constructor (store.ts loadSqlite: a dynamic import). */
  open: OpenDatabase;
}

interface Follower {
  q: ReturnType<typeof checkQuery>;
  emit: (e: RecorderEntry) => void;
}

export const DEFAULT_MAX_AGE_MS = 168 * 3_600_000;
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Rows a follower gets replayed at most (the newest since its `from`). */
export const MAX_FOLLOW_REPLAY = 1000;

export class FlightRecorder implements FlightRecorderApi {
  private readonly store: RecorderStore;
  private readonly queue = new Set<PendingRow>();
  private readonly spans = new ProbeSpans();
  private readonly backOffs = new BackOffSpans();
  private readonly oom = new OomSeen();
  private readonly followers = new Set<Follower>();
  private readonly releases: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  private lastTrim = 0;
  private dropped = 0;
  private readonly capacity: number;

  constructor(
    private readonly deps: FlightRecorderDeps,
    private readonly config: FlightRecorderConfig,
  ) {
    this.capacity = config.queueCapacity ?? 10_000;
    this.store = RecorderStore.open(deps.open, config.path, deps.logger, deps.clock.now());
    this.trim();
    const flushMs = config.flushMs ?? 1000;
    if (flushMs > 0) {
      this.timer = setInterval(() => this.flushSafely(), flushMs);
      this.timer.unref();
    }
  }

  /** Records the bus's events, and every probe run when the probes offer them (else the bus's probe events). */
  attach(bus: EventBus, probes?: Pick<ProbesApi, 'onRun'>): void {
    const onRun = probes?.onRun?.bind(probes);
    if (onRun) this.releases.push(onRun((run) => this.probeRun(run)));
    this.releases.push(
      bus.subscribe((e) => {
        try {
          this.event(e, !onRun);
        } catch (err) {
          this.deps.logger.warn('flight recorder: event not recorded', { type: e.type, err: (err as Error).message });
        }
      }),
    );
  }

  event(e: NodeletEvent, probesFromBus = true): void {
    if (e.type === 'probe') {
      if (probesFromBus) this.probeRun(e);
      return;
    }
    if (e.type === 'podConfig' && (e.op === 'REMOVE' || e.op === 'DELETE')) {
      this.spans.forgetPod(e.pod.uid);
      this.backOffs.forgetPod(e.pod.uid);
    }
    for (const entry of entriesFromEvent(e, this.oom)) {
      if (entry.kind === 'container' && entry.reason === 'ContainerStarted') this.backOffs.close(entry.podUID, entry.container);
      if (entry.kind === 'backoff') this.enqueue(this.backOffs.add(entry, this.timeOf(entry)));
      else this.record(entry);
    }
  }

  probeRun(run: ProbeRunInput): void {
    this.enqueue(this.spans.add(run, Date.parse(run.time)));
  }

  record(entry: RecorderEntryInput): void {
    this.enqueue({ entry, timeMs: this.timeOf(entry), count: entry.count ?? 1 });
  }

  private timeOf(entry: RecorderEntryInput): number {
    const ms = Date.parse(entry.time);
    return Number.isFinite(ms) ? ms : this.deps.clock.now();
  }

  private enqueue(row: PendingRow): void {
    this.queue.add(row);
    if (this.queue.size <= this.capacity) return;
    const oldest = this.queue.values().next().value;
    if (oldest) this.queue.delete(oldest);
    this.dropped++;
  }

  /** Writes the queued rows in one transaction and tells the followers; trims when its period has passed. */
  flush(): void {
    if (this.queue.size > 0) {
      const rows = [...this.queue];
      this.queue.clear();
      this.store.write(rows);
      if (this.followers.size) for (const r of rows) this.tell(pendingEntry(r), r);
    }
    if (this.deps.clock.now() - this.lastTrim >= (this.config.trimEveryMs ?? 30_000)) this.trim();
  }

  private flushSafely(): void {
    try {
      this.flush();
    } catch (err) {
      this.deps.logger.error('flight recorder: write failed', { file: this.config.path, err: (err as Error).message });
    }
  }

  private tell(e: RecorderEntry, r: PendingRow): void {
    for (const f of this.followers) {
      const { q } = f;
      if ((r.lastMs ?? r.timeMs) < q.fromMs) continue;
      if (q.podUID && e.podUID !== q.podUID) continue;
      if (q.kinds && !q.kinds.includes(e.kind)) continue;
      f.emit(e);
    }
  }

  /** Age first (rows older than maxAge), then size (oldest rows until under maxBytes). */
  trim(): number {
    const now = this.deps.clock.now();
    this.lastTrim = now;
    return this.store.trim(now - this.config.maxAgeMs, this.config.maxBytes);
  }

  query(q: RecorderQuery): RecorderPage {
    return this.store.query(checkQuery(q, this.deps.clock.now()));
  }

  follow(q: RecorderFollow, emit: (e: RecorderEntry) => void, replay = MAX_FOLLOW_REPLAY): () => void {
    const checked = checkQuery({ ...q, to: Number.MAX_SAFE_INTEGER }, this.deps.clock.now());
    this.flushSafely();
    const n = Math.min(Math.max(0, replay), MAX_FOLLOW_REPLAY);
    if (n > 0) {
      const page = this.store.query({ ...checked, limit: n, order: 'desc' });
      for (const e of page.entries.reverse()) emit(e);
    }
    const f: Follower = { q: checked, emit };
    this.followers.add(f);
    return () => void this.followers.delete(f);
  }

  stats(): RecorderStats {
    return {
      path: this.config.path,
      rows: this.store.rows(),
      bytes: this.store.bytes(),
      queued: this.queue.size,
      dropped: this.dropped,
      maxBytes: this.config.maxBytes,
      maxAgeMs: this.config.maxAgeMs,
    };
  }

  /** Writes what is queued and closes the file. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const r of this.releases.splice(0)) r();
    this.flushSafely();
    this.followers.clear();
    this.store.close();
  }
}
