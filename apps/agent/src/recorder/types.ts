/**
 * The flight recorder's rows and its query, typed once: the SQLite store (store.ts) keeps them, the tRPC query
 * `recorder.query`, socket.io `nodelet:recorder` and the console's timelines carry them unchanged.
 */

/** What a row records (one lifecycle decision of the node, or a span of equal probe results). */
export const RECORDER_KINDS = [
  'admission', // a pod admitted or refused (reason)
  'sync', // a step computePodActions decided and syncPod took: CreatePodSandbox, StartContainer, KillContainer ...
  'pull', // image pulls: Pulling / Pulled / Failed / ErrImageNeverPull / back-off pulling
  'probe', // a span of equal probe results (first time, last time, count)
  'backoff', // CrashLoopBackOff: the container and the back-off delay
  'kill', // a container or pod killed, with the reason (Killing, Preempting ...)
  'eviction', // a pod evicted (Evicted), node pressure changes
  'gc', // container / image GC removals
  'oom', // OOM kills (a container terminated OOMKilled, the node's SystemOOM)
  'container', // a container started / died (PLEG)
  'config', // the pod added / updated / removed by its source
  'event', // any other Kubernetes event about a pod (FailedMount, FailedCreatePodSandBox ...)
] as const;
export type RecorderKind = (typeof RECORDER_KINDS)[number];

/** One row. Times are ISO strings on the wire (ms since the epoch in the store). */
export interface RecorderEntry {
  /** Increasing row id (a probe span keeps its id while it grows: clients upsert by id). */
  id: number;
  time: string;
  /** Spans only (kind 'probe'): the last equal result's time; `count` results from `time` to `last`. */
  last?: string;
  count: number;
  kind: RecorderKind;
  podUID?: string;
  namespace?: string;
  name?: string;
  container?: string;
  /** The kubelet's reason string (OutOfmemory, CrashLoopBackOff, Killing, success / failure ...). */
  reason?: string;
  message?: string;
  /** Kind-specific details (a sync step's action, the back-off delay in ms, a GC's removed ids ...). */
  details?: Record<string, unknown>;
}

/** A row before the store gives it an id. */
export type RecorderEntryInput = Omit<RecorderEntry, 'id' | 'count'> & { count?: number };

/** recorder.query input: a time range (ISO or ms), a pod, kinds, a page. */
export interface RecorderQuery {
  /** Rows at or after this time (a span counts while its last result is at or after it). Default: the oldest row. */
  from?: string | number;
  /** Rows at or before this time. Default: now. */
  to?: string | number;
  podUID?: string;
  kinds?: RecorderKind[];
  /** Page size: default 200, at most MAX_PAGE (a larger limit is capped, never an unbounded page). */
  limit?: number;
  /** The previous page's nextCursor: the rows after (asc) or before (desc) it. */
  cursor?: string;
  /** 'asc' (default: oldest first) or 'desc' (newest first). */
  order?: 'asc' | 'desc';
}

/** What a follower asks for: rows since `from` (replayed), then live. */
export type RecorderFollow = Pick<RecorderQuery, 'from' | 'podUID' | 'kinds'>;

export interface RecorderPage {
  entries: RecorderEntry[];
  /** Present when more rows match: pass it as `cursor` for the next page. */
  nextCursor?: string;
}

export const DEFAULT_PAGE = 200;
export const MAX_PAGE = 1000;

/** The recorder as its readers see it (tRPC, socket.io, the "why" explainer). */
export interface FlightRecorderApi {
  /** Rows matching the query, one page; throws RecorderQueryError on bad input (inverted range, bad cursor). */
  query(q: RecorderQuery): RecorderPage;
  /**
   * Rows from `from` (replayed oldest first, at most `replay`), then every new or grown row matching the filter
   * as it is written (about once a second). Replay and subscription happen in one synchronous step.
   */
  follow(q: RecorderFollow, emit: (e: RecorderEntry) => void, replay?: number): () => void;
  /** Store figures: rows, bytes in use, queued, dropped (a full queue drops the oldest). */
  stats(): RecorderStats;
}

export interface RecorderStats {
  path: string;
  rows: number;
  bytes: number;
  queued: number;
  dropped: number;
  maxBytes: number;
  maxAgeMs: number;
}

/** Bad query input (the tRPC router answers BAD_REQUEST with the message). */
export class RecorderQueryError extends Error {
  override name = 'RecorderQueryError';
}
