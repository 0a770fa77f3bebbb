/**
 * Pod sources (static manifest dir, manifest URL, later the API server) and their merge into one stream of
 * incremental PodUpdates, as the kubelet's pkg/kubelet/config.
 */
import type { V1Pod } from '@kubernetes/client-node';

/**
 * SET: a source's full set of pods (sources → PodConfig only). ADD/UPDATE/DELETE/REMOVE/RECONCILE: the
 * incremental ops PodConfig emits. DELETE = graceful deletion requested (deletionTimestamp set, API source);
 * REMOVE = gone from the source; RECONCILE = only the status changed.
 */
export type PodOperation = 'SET' | 'ADD' | 'UPDATE' | 'DELETE' | 'REMOVE' | 'RECONCILE';
export type PodSourceName = 'file' | 'http' | 'api';
export const ALL_SOURCES: readonly PodSourceName[] = ['file', 'http', 'api'];

export interface PodUpdate {
  op: PodOperation;
  pods: V1Pod[];
  source: PodSourceName;
}

/** A manifest that did not parse/validate, or a failed fetch. The kubelet logs it and emits a Warning event. */
export interface SourceError {
  source: PodSourceName;
  /** Manifest file path (file source) or URL (http source). */
  file: string;
  message: string;
  /** Set when the error concerns one pod (e.g. a duplicate): namespace/name of that pod. */
  pod?: { namespace: string; name: string };
}

/** A pod source. It reports its complete pod set (op SET) through the `onUpdate` callback it was built with. */
export interface PodSource {
  readonly name: PodSourceName;
  /** Starts watching/polling. Idempotent. Resolves after the first scan/fetch has been reported. */
  start(signal?: AbortSignal): Promise<void>;
  /** Stops watchers and timers. Idempotent. */
  stop(): Promise<void>;
}

export interface PodSourceCallbacks {
  /** Usually `podConfig.channel(name)`. */
  onUpdate(update: PodUpdate): void;
  onError?(err: SourceError): void;
}

export interface PodConfig {
  /** Registers `source` as expected (for sourcesReady) and returns the function the source reports SETs to. */
  channel(source: PodSourceName): (update: PodUpdate) => void;
  /** Merged, incremental updates (ADD/UPDATE/DELETE/REMOVE/RECONCILE), in arrival order. Returns unsubscribe. */
  subscribe(listener: (update: PodUpdate) => void): () => void;
  /** True once every registered source has reported at least once. */
  sourcesReady(): boolean;
  /** True once each named source has reported at least once. */
  seenAllSources(sources: readonly PodSourceName[]): boolean;
  /** Current merged pods of all sources (or of one). */
  pods(source?: PodSourceName): V1Pod[];
}

/** The kubelet's static pod annotations (pkg/kubelet/types). */
export const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source';
export const CONFIG_HASH_ANNOTATION = 'kubernetes.io/config.hash';
export const CONFIG_SEEN_ANNOTATION = 'kubernetes.io/config.seen';
export const CONFIG_MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
