/**
 * Pod lifecycle event generator (PLEG): turns runtime state changes into per-pod events that wake pod
 * workers, and keeps the pod status cache fresh. Implementations: generic (relist) and, later, evented
 * (CRI GetContainerEvents); both expose this interface.
 */
import type { PlegEventType } from '../events/types.ts';
import type { BoundedChannel } from '../util/bounded-channel.ts';

export interface PodLifecycleEvent {
  /** Pod UID. */
  uid: string;
  type: PlegEventType;
  /** Container ID (bare runtime id) the event is about. */
  data: string;
}

export interface PlegHealth {
  ok: boolean;
  message?: string;
}

export interface PodLifecycleEventGenerator {
  /** Starts the relist loop / event stream. Idempotent. */
  start(): void;
  /** Stops it. Idempotent. */
  stop(): void;
  /** The channel the sync loop reads. Bounded: when full events are discarded and counted (`dropped`). */
  watch(): BoundedChannel<PodLifecycleEvent>;
  healthy(): PlegHealth;
  /**
   * Re-inspects one pod now and refreshes the cache (used after a sync to avoid stale reads). With `after`
   * (epoch ms), a read of the pod begun later than that and still in flight (an event's re-read) is joined
   * instead of a second one: it already sees everything done before `after`.
   */
  updateCache(uid: string, name: string, namespace: string, after?: number): Promise<void>;
}

/** The kubelet_pleg_* / kubelet_evented_pleg_* handles (a subset of metrics/createKubeletMetrics). */
export interface PlegMetrics {
  plegRelistDuration: { observe(seconds: number): void };
  plegRelistInterval: { observe(seconds: number): void };
  plegDiscardEvents: { inc(n?: number): void };
  plegLastSeen: { set(unixSeconds: number): void };
  eventedPlegConnectionErrors: { inc(n?: number): void };
  eventedPlegConnections: { inc(n?: number): void };
  eventedPlegConnectionLatency: { observe(seconds: number): void };
}

export interface GenericPlegConfig {
  /** genericPlegRelistPeriod: 1 s. */
  relistPeriodMs: number;
  /** genericPlegRelistThreshold: 3 min. */
  relistThresholdMs: number;
  /** plegChannelCapacity: 1000. */
  channelCapacity: number;
  /** Pods inspected (GetPodStatus) side by side per relist (nodelet; the kubelet inspects one at a time). */
  inspectConcurrency: number;
}

export const DEFAULT_GENERIC_PLEG_CONFIG: GenericPlegConfig = {
  relistPeriodMs: 1_000,
  relistThresholdMs: 180_000,
  channelCapacity: 1000,
  inspectConcurrency: 4,
};

export interface EventedPlegConfig {
  /** Relist period while the stream is down or absent: 1 s. */
  fallbackRelistPeriodMs: number;
  fallbackRelistThresholdMs: number;
  /** Relist period while the stream is up: 300 s. */
  eventedRelistPeriodMs: number;
  /** Health threshold while the stream is up: 10 min. */
  eventedRelistThresholdMs: number;
  /** A stream open this long without error counts as connected. */
  establishMs: number;
  reconnectInitialMs: number;
  reconnectMaxMs: number;
  /** Cache global-timestamp refresh while connected. */
  cacheRefreshMs: number;
}

export const DEFAULT_EVENTED_PLEG_CONFIG: EventedPlegConfig = {
  fallbackRelistPeriodMs: 1_000,
  fallbackRelistThresholdMs: 180_000,
  eventedRelistPeriodMs: 300_000,
  eventedRelistThresholdMs: 600_000,
  establishMs: 500,
  reconnectInitialMs: 1_000,
  // Capped low: after a runtime restart the stream is back within 2 s (the 1 s relist covers the gap).
  reconnectMaxMs: 2_000,
  cacheRefreshMs: 1_000,
};

export type EventedPlegMode = 'connecting' | 'evented' | 'relist-only';
