/**
 * pods.why and the `why` of each pods.list row: explainPod (core) over the pod's status and the agent's own
 * state — the pod's recent Kubernetes events on the bus (the last pull error, FailedCreatePodSandBox) and its
 * probe workers (how many runs in a row failed, the last output), and, when the flight recorder is on, how long a
 * failing probe has failed (its span of failures, which outlives an agent restart). Events are matched by pod UID,
 * so a re-created pod does not inherit its namesake's history.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { explainPod, type K8sBusEvent, type PodWhy, type WhyEvent, type WhyProbe } from '@nodelet/core/events';
import type { KubeletApi } from '@nodelet/core/kubelet';
import type { FlightRecorderApi } from '../recorder/types.ts';

export type PodWithWhy = V1Pod & { why?: PodWhy };

/** How many recent k8s events one list call reads (all pods' together). */
const EVENT_WINDOW = 2000;

/** The explanation for each pod (undefined for pods Running and Ready). */
export function podsWithWhy(kubelet: KubeletApi, pods: V1Pod[], now = Date.now(), recorder?: FlightRecorderApi): PodWithWhy[] {
  const pending = pods.filter((p) => !runningReady(p));
  if (pending.length === 0) return pods;
  const events = eventsByUid(kubelet, pending.length === 1 ? pending[0] : undefined);
  return pods.map((p) => {
    if (runningReady(p)) return p;
    const why = explainPod(p, { now, events: events.get(p.metadata?.uid ?? '') ?? [], probes: withFailingSpans(probesOf(kubelet, p), p, now, recorder) });
    return why ? { ...p, why } : p;
  });
}

export function podWhy(kubelet: KubeletApi, pod: V1Pod, now = Date.now(), recorder?: FlightRecorderApi): PodWhy | undefined {
  return podsWithWhy(kubelet, [pod], now, recorder)[0]?.why;
}

/** A failing probe's newest recorder span of failures: failing since its first failure (never breaks the why). */
function withFailingSpans(probes: WhyProbe[], p: V1Pod, now: number, recorder: FlightRecorderApi | undefined): WhyProbe[] {
  const uid = p.metadata?.uid;
  if (!recorder || !uid || !probes.some((w) => w.lastResult === 'failure')) return probes;
  let spans: Array<{ container?: string; probeType?: unknown; reason?: string; time: string }>;
  try {
    spans = recorder.query({ podUID: uid, kinds: ['probe'], order: 'desc', limit: 50 }).entries.map((e) => ({ ...e, probeType: e.details?.probeType }));
  } catch {
    return probes;
  }
  return probes.map((w) => {
    const span = w.lastResult === 'failure' ? spans.find((s) => s.container === w.container && s.probeType === w.probeType) : undefined;
    return span?.reason === 'failure' ? { ...w, failingForMs: Math.max(0, now - Date.parse(span.time)) } : w;
  });
}

function runningReady(p: V1Pod): boolean {
  return p.status?.phase === 'Succeeded' || (p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'));
}

function eventsByUid(kubelet: KubeletApi, one: V1Pod | undefined): Map<string, WhyEvent[]> {
  const filter = one ? { namespace: one.metadata?.namespace ?? 'default', pod: one.metadata?.name ?? '' } : {};
  const out = new Map<string, WhyEvent[]>();
  for (const e of kubelet.events.recent({ ...filter, types: ['k8sEvent'] }, EVENT_WINDOW)) {
    const k = e as K8sBusEvent;
    const uid = k.involvedObject.kind === 'Pod' ? k.involvedObject.uid : undefined;
    if (!uid) continue;
    const list = out.get(uid) ?? [];
    list.push({ reason: k.reason, message: k.message, count: k.count, lastTimestamp: k.lastTimestamp });
    out.set(uid, list);
  }
  return out;
}

function probesOf(kubelet: KubeletApi, p: V1Pod): WhyProbe[] {
  const uid = p.metadata?.uid;
  return (kubelet.probes?.list({ namespace: p.metadata?.namespace ?? 'default', pod: p.metadata?.name ?? '' }) ?? [])
    .filter((w) => !uid || w.pod.uid === uid)
    .map((w) => ({
      container: w.container,
      probeType: w.probeType,
      target: w.target,
      ...(w.lastResult ? { lastResult: w.lastResult } : {}),
      consecutive: w.consecutive,
      periodSeconds: w.periodSeconds,
      ...(w.lastRun ? { output: w.lastRun.output } : {}),
    }));
}
