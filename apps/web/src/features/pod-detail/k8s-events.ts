/**
 * The kubelet's recorder aggregates repeats of an Event (count, lastTimestamp), and each update reaches the bus
 * as a new bus event. For the pod's Events table, keep one row per Event: the newest update of each.
 */
import type { K8sBusEvent } from '../../lib/api-types.ts';

export function k8sEventKey(e: K8sBusEvent): string {
  const o = e.involvedObject;
  return [o.kind, o.namespace ?? '', o.name, o.uid ?? '', o.fieldPath ?? '', e.eventType, e.reason, e.message].join('\u0000');
}

/** One row per Event (its newest update), newest first. */
export function collapseK8sEvents(events: readonly K8sBusEvent[]): K8sBusEvent[] {
  const latest = new Map<string, K8sBusEvent>();
  for (const e of events) {
    const k = k8sEventKey(e);
    const prev = latest.get(k);
    if (!prev || e.seq > prev.seq) latest.set(k, e);
  }
  return [...latest.values()].sort((a, b) => b.seq - a.seq);
}
