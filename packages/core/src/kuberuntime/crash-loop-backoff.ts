/**
 * CrashLoopBackOff per (pod, container), as the kubelet's kuberuntime doBackOff: keyed by the pod's name, namespace,
 * UID, the container's name and its spec hash (a changed container starts over), measured from the last exit.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { Backoff } from '../util/backoff.ts';
import type { Clock } from '../util/clock.ts';
import type { PodStatus } from '../container/types.ts';
import { formatGoDuration } from '../container/go-duration.ts';
import { hashContainer } from '../container/hash.ts';
import type { EventSink } from './types.ts';

export function formatPod(pod: V1Pod): string {
  return `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? 'default'}(${pod.metadata?.uid ?? ''})`;
}

function backOffKey(pod: V1Pod, c: V1Container): string {
  const m = pod.metadata ?? {};
  return `${m.name ?? ''}_${m.namespace ?? ''}_${m.uid ?? ''}_${c.name}_${hashContainer(c)}`;
}

export class CrashLoopBackOff {
  private readonly backOff: Backoff;

  constructor(clock: Clock, config: ConstructorParameters<typeof Backoff>[1], private readonly events: EventSink) {
    this.backOff = new Backoff(clock, config);
  }

  /** Ms until the container may be restarted (0 = not in back-off); lets the kubelet schedule a resync. */
  remaining(pod: V1Pod, c: V1Container, status: PodStatus): number {
    const dead = status.containerStatuses.find((s) => s.name === c.name && s.state === 'exited');
    if (!dead) return 0;
    return this.backOff.remaining(backOffKey(pod, c), dead.finishedAt);
  }

  /** The CrashLoopBackOff message (and a BackOff event) when the container's last exit is still within its back-off. */
  check(pod: V1Pod, c: V1Container, status: PodStatus, init: boolean): string | undefined {
    const dead = status.containerStatuses.find((s) => s.name === c.name && s.state === 'exited');
    if (!dead) return undefined;
    const key = backOffKey(pod, c);
    if (this.backOff.isInBackOffSince(key, dead.finishedAt)) {
      const fieldPath = `spec.${init ? 'initContainers' : 'containers'}{${c.name}}`;
      this.events(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${formatPod(pod)}`, fieldPath);
      return `back-off ${formatGoDuration(this.backOff.get(key))} restarting failed container=${c.name} pod=${formatPod(pod)}`;
    }
    this.backOff.next(key, dead.finishedAt);
    return undefined;
  }
}
