/**
 * Probe Kubernetes Events with the kubelet's messages (`Liveness probe failed: <output>`, `Readiness probe
 * warning: <output>`, `Startup probe errored and resulted in unknown state: <err>`), rate-limited per
 * (pod, container, probe type, reason) by a small token bucket on the injected clock.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { EventRecorder, ObjectRef } from '../events/recorder.ts';
import type { Clock } from '../util/clock.ts';
import { probeTypeTitle, type ProbeType, type RunOutcome } from './types.ts';

export const REASON_UNHEALTHY = 'Unhealthy';
export const REASON_PROBE_WARNING = 'ProbeWarning';

export interface ProbeEventsConfig {
  /** Events a key may emit at once (default 3). */
  burst?: number;
  /** Tokens refilled per second per key (default 0.1: one event per 10 s once the burst is spent). */
  perSecond?: number;
}

interface Bucket {
  tokens: number;
  last: number;
}

/** The message of a run's event, or undefined when a run records none (success). */
export function probeEventFor(t: ProbeType, o: RunOutcome): { reason: string; message: string } | undefined {
  const title = probeTypeTitle(t);
  if (o.error !== undefined) return { reason: REASON_UNHEALTHY, message: `${title} probe errored and resulted in unknown state: ${o.error}` };
  switch (o.status) {
    case 'success':
      return undefined;
    case 'warning':
      return { reason: REASON_PROBE_WARNING, message: `${title} probe warning: ${o.output}` };
    case 'failure':
      return { reason: REASON_UNHEALTHY, message: `${title} probe failed: ${o.output}` };
    case 'unknown':
      return undefined;
  }
}

export function containerRef(pod: V1Pod, containerName: string): ObjectRef {
  const init = (pod.spec?.initContainers ?? []).some((c) => c.name === containerName);
  return {
    kind: 'Pod',
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid,
    fieldPath: `spec.${init ? 'initContainers' : 'containers'}{${containerName}}`,
  };
}

export class ProbeEvents {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;
  private readonly perSecond: number;
  /** Events dropped by the per-key limiter. */
  dropped = 0;

  constructor(
    private readonly recorder: EventRecorder | undefined,
    private readonly clock: Clock,
    config: ProbeEventsConfig = {},
  ) {
    this.burst = config.burst ?? 3;
    this.perSecond = config.perSecond ?? 0.1;
  }

  /** Records the run's event (if any and if the key has a token). Returns whether one was recorded. */
  record(pod: V1Pod, containerName: string, t: ProbeType, o: RunOutcome): boolean {
    const ev = probeEventFor(t, o);
    if (!ev || !this.recorder) return false;
    const key = `${pod.metadata?.uid ?? ''}/${containerName}/${t}/${ev.reason}`;
    if (!this.take(key)) {
      this.dropped++;
      return false;
    }
    this.recorder.event(containerRef(pod, containerName), 'Warning', ev.reason, ev.message);
    return true;
  }

  /** Forgets the limiter state of a pod's keys (pod removed). */
  forgetPod(podUid: string): void {
    for (const k of [...this.buckets.keys()]) if (k.startsWith(`${podUid}/`)) this.buckets.delete(k);
  }

  private take(key: string): boolean {
    const now = this.clock.monotonic();
    const b = this.buckets.get(key) ?? { tokens: this.burst, last: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.last) / 1000) * this.perSecond);
    b.last = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
