/**
 * Pure reducers that fold live events into cached query data (pods.list, pods.get, node.get), and the
 * plan of which caches an event touches. The hook (use-live-cache-sync.ts) only wires these to TanStack Query.
 */
import type { K8sBusEvent, NodeletEvent, PodDetail, PodStatusBusEvent, WirePod, WirePodStatus } from '../../lib/api-types.ts';

export type PodKey = { namespace: string; name: string };

export type CacheEffect =
  | { kind: 'list-patch-status'; event: PodStatusBusEvent }
  | { kind: 'list-remove'; pod: PodKey }
  | { kind: 'list-invalidate' }
  | { kind: 'detail-patch-status'; event: PodStatusBusEvent }
  | { kind: 'detail-add-event'; pod: PodKey; event: K8sBusEvent }
  | { kind: 'detail-invalidate'; pod: PodKey }
  | { kind: 'node-invalidate' };

/** What a live event changes in the caches. */
export function cacheEffects(e: NodeletEvent): CacheEffect[] {
  switch (e.type) {
    case 'podStatus':
      return [{ kind: 'list-patch-status', event: e }, { kind: 'detail-patch-status', event: e }];
    case 'podConfig': {
      const pod = { namespace: e.pod.namespace, name: e.pod.name };
      // REMOVE: the pod is gone from the node. DELETE is a graceful deletion starting: the agent keeps the pod,
      // now with its deletionTimestamp (Terminating), until its containers are gone and the source removes it.
      if (e.op === 'REMOVE') {
        return [{ kind: 'list-remove', pod }, { kind: 'detail-invalidate', pod }, { kind: 'node-invalidate' }];
      }
      return [{ kind: 'list-invalidate' }, { kind: 'detail-invalidate', pod }, { kind: 'node-invalidate' }];
    }
    case 'device':
      // A plugin's devices reach the Node's capacity / allocatable (the Resources page folds the event itself).
      return [{ kind: 'node-invalidate' }];
    case 'k8sEvent': {
      const o = e.involvedObject;
      if (o.kind !== 'Pod' || !o.namespace) return [];
      return [{ kind: 'detail-add-event', pod: { namespace: o.namespace, name: o.name }, event: e }];
    }
    case 'runtime':
      return [{ kind: 'node-invalidate' }];
    case 'pleg':
    case 'probe':
    case 'decision':
      // Probe results reach the pod through a podStatus event (readiness) when they matter; the probe panel
      // folds probe events into its own caches (features/probes).
      return [];
    case 'pressure':
    case 'shutdown': // the node's Ready condition says "node is shutting down" (the shutdown panel folds the event itself)
      return [{ kind: 'node-invalidate' }];
    case 'gc':
      return [];
  }
}

/** The event came over JSON too, so its status has the wire shape (ISO strings where the type says Date). */
function wireStatus(e: PodStatusBusEvent): WirePodStatus {
  return e.status as unknown as WirePodStatus;
}

function isPod(p: WirePod, k: PodKey): boolean {
  return (p.metadata?.namespace ?? 'default') === k.namespace && p.metadata?.name === k.name;
}

/** Replace the status of the matching pod; `found: false` when the pod is not in the list (refetch it). */
export function patchListStatus(pods: WirePod[] | undefined, e: PodStatusBusEvent): { pods: WirePod[] | undefined; found: boolean } {
  if (!pods) return { pods, found: false };
  const i = pods.findIndex((p) => isPod(p, e.pod) && (!e.pod.uid || !p.metadata?.uid || p.metadata.uid === e.pod.uid));
  if (i < 0) return { pods, found: false };
  const next = pods.slice();
  next[i] = { ...pods[i], status: wireStatus(e) };
  return { pods: next, found: true };
}

export function removeFromList(pods: WirePod[] | undefined, k: PodKey): WirePod[] | undefined {
  if (!pods) return pods;
  const next = pods.filter((p) => !isPod(p, k));
  return next.length === pods.length ? pods : next;
}

export function patchDetailStatus(detail: PodDetail | undefined, e: PodStatusBusEvent): PodDetail | undefined {
  if (!detail || !isPod(detail.pod, e.pod)) return detail;
  return { ...detail, pod: { ...detail.pod, status: wireStatus(e) } };
}

/** Append a Kubernetes event to the pod's detail (dedupe by seq, oldest first, keep the newest `max`). */
export function addDetailEvent(detail: PodDetail | undefined, e: K8sBusEvent, max = 100): PodDetail | undefined {
  if (!detail || detail.events.some((x) => x.seq === e.seq)) return detail;
  const events = [...detail.events, e].sort((a, b) => a.seq - b.seq).slice(-max);
  return { ...detail, events };
}
