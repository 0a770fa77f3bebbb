/**
 * The kubelet's event recorder: Kubernetes Events (Normal/Warning, reason, message) about an object,
 * published on the bus as `k8sEvent`. Repeats of the same (object, type, reason, message) are aggregated
 * (count and lastTimestamp bumped, firstTimestamp kept); a token bucket (eventRecordQPS 50, eventBurst 100)
 * drops what exceeds the rate.
 */
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { EventBus, K8sBusEvent } from './types.ts';
import { TokenBucket } from './token-bucket.ts';

export type ObjectRef = K8sBusEvent['involvedObject'];
export type EventType = K8sBusEvent['eventType'];

export interface EventRecorder {
  /** Records an event; returns the published bus event, or undefined when rate-limited. */
  event(ref: ObjectRef, type: EventType, reason: string, message: string): K8sBusEvent | undefined;
  /** Latest aggregated events about an object (kind/namespace/name, and uid when given), oldest first. */
  eventsFor(ref: Pick<ObjectRef, 'kind' | 'namespace' | 'name'> & { uid?: string }): K8sBusEvent[];
}

export interface EventRecorderDeps {
  bus: EventBus;
  clock: Clock;
  logger?: Logger;
}

export interface EventRecorderConfig {
  /** eventRecordQPS (default 50); 0 disables rate limiting, as the kubelet. */
  qps?: number;
  /** eventBurst (default 100). */
  burst?: number;
  /** Aggregation cache size (default 4096, LRU). */
  cacheSize?: number;
}

/** Builds an ObjectRef for a pod (and optionally a container field path: spec.containers{name}). */
export function podRef(
  pod: { metadata?: { namespace?: string; name?: string; uid?: string } },
  container?: string,
  init = false,
): ObjectRef {
  const ref: ObjectRef = {
    kind: 'Pod',
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid,
  };
  if (container) ref.fieldPath = `spec.${init ? 'initContainers' : 'containers'}{${container}}`;
  return ref;
}

export class KubeletEventRecorder implements EventRecorder {
  private readonly bucket: TokenBucket | undefined;
  private readonly cache = new Map<string, K8sBusEvent>();
  private readonly cacheSize: number;
  /** Events dropped by the rate limiter. */
  dropped = 0;

  constructor(
    private readonly deps: EventRecorderDeps,
    config: EventRecorderConfig = {},
  ) {
    const qps = config.qps ?? 50;
    this.bucket = qps > 0 ? new TokenBucket(deps.clock, qps, config.burst ?? 100) : undefined;
    this.cacheSize = config.cacheSize ?? 4096;
  }

  event(ref: ObjectRef, type: EventType, reason: string, message: string): K8sBusEvent | undefined {
    if (this.bucket && !this.bucket.tryAccept()) {
      this.dropped++;
      this.deps.logger?.debug('event dropped by rate limiter', { reason, object: `${ref.namespace}/${ref.name}` });
      return undefined;
    }
    const key = JSON.stringify([ref.kind, ref.namespace, ref.name, ref.uid, ref.fieldPath, type, reason, message]);
    const now = new Date(this.deps.clock.now()).toISOString();
    const prev = this.cache.get(key);
    const input = {
      type: 'k8sEvent' as const,
      time: now,
      eventType: type,
      reason,
      message,
      involvedObject: { ...ref },
      count: (prev?.count ?? 0) + 1,
      firstTimestamp: prev?.firstTimestamp ?? now,
      lastTimestamp: now,
    };
    const published = this.deps.bus.publish(input) as K8sBusEvent;
    this.cache.delete(key);
    this.cache.set(key, published);
    if (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    return published;
  }

  eventsFor(ref: Pick<ObjectRef, 'kind' | 'namespace' | 'name'> & { uid?: string }): K8sBusEvent[] {
    const out: K8sBusEvent[] = [];
    for (const e of this.cache.values()) {
      const o = e.involvedObject;
      if (o.kind !== ref.kind || o.name !== ref.name || (o.namespace ?? '') !== (ref.namespace ?? '')) continue;
      if (ref.uid && o.uid && o.uid !== ref.uid) continue;
      out.push(e);
    }
    return out.sort((a, b) => a.seq - b.seq);
  }
}
