/**
 * The kubelet's critical pod admission handler (pkg/kubelet/preemption): a critical pod (static, mirror, system
 * priority) refused only for insufficient pods / cpu / memory is admitted after preempting other active pods —
 * chosen to free the shortfall with the least impact: besteffort before burstable before guaranteed, fewest pods,
 * then smallest requests. When no such set exists the pod is refused with UnexpectedAdmissionError and the
 * kubelet's message. The victims are killed by the pod workers with phase Failed, reason Preempting.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { isCriticalPod } from '../api/pod-helpers.ts';
import { getPodQOS } from '../api/qos.ts';
import { computePodRequests } from './pod-requests.ts';

/** events.PreemptContainer and the message of the preempted pods' status and event. */
export const PreemptingReason = 'Preempting';
export const PreemptedMessage = 'Preempted in order to admit critical pod';

export type Resource = 'pods' | 'cpu' | 'memory';
/** One shortfall: how much of a resource must be freed (cpu in millicores, memory in bytes, pods a count). */
export interface Requirement {
  resource: Resource;
  quantity: number;
}

/** resource.GetResourceRequest: a pod frees 1 pod slot, and its effective cpu / memory requests. */
function requestOf(pod: V1Pod, resource: Resource): number {
  if (resource === 'pods') return 1;
  const r = computePodRequests(pod);
  if (!r.ok) return 0;
  return resource === 'cpu' ? r.requests.cpuMilli : r.requests.memoryBytes;
}

function subtract(reqs: Requirement[], pods: V1Pod[]): Requirement[] {
  const out: Requirement[] = [];
  for (const req of reqs) {
    let q = req.quantity;
    for (const p of pods) {
      q -= requestOf(p, req.resource);
      if (q <= 0) break;
    }
    if (q > 0) out.push({ resource: req.resource, quantity: q });
  }
  return out;
}

/** Each requirement weighs the same: the squared fraction a pod leaves unmet. */
function distance(reqs: Requirement[], pod: V1Pod): number {
  let d = 0;
  for (const req of reqs) {
    const left = req.quantity - requestOf(pod, req.resource);
    if (left > 0) d += (left / req.quantity) ** 2;
  }
  return d;
}

function smallerRequest(a: V1Pod, b: V1Pod): boolean {
  for (const r of ['memory', 'cpu'] as const) {
    const x = requestOf(a, r);
    const y = requestOf(b, r);
    if (x !== y) return x < y;
  }
  return true;
}

/** kubetypes.Preemptable: a critical pod preempts non-critical ones; else only a strictly higher priority. */
export function preemptable(preemptor: V1Pod, preemptee: V1Pod): boolean {
  if (isCriticalPod(preemptor) && !isCriticalPod(preemptee)) return true;
  const a = preemptor.spec?.priority;
  const b = preemptee.spec?.priority;
  return a !== undefined && b !== undefined && a > b;
}

export function requirementsText(reqs: Requirement[]): string {
  return `[${reqs.map((r) => `(res: ${r.resource}, q: ${r.quantity}), `).join('')}]`;
}

function byDistance(candidates: V1Pod[], start: Requirement[]): { ok: true; pods: V1Pod[] } | { ok: false; message: string } {
  const pods = [...candidates];
  const chosen: V1Pod[] = [];
  let reqs = start;
  while (reqs.length > 0) {
    if (pods.length === 0) return { ok: false, message: `no set of running pods found to reclaim resources: ${requirementsText(reqs)}` };
    let best = 0;
    let bestDist = reqs.length + 1;
    pods.forEach((p, i) => {
      const d = distance(reqs, p);
      if (d < bestDist || (d === bestDist && smallerRequest(p, pods[best] as V1Pod))) {
        bestDist = d;
        best = i;
      }
    });
    const pick = pods[best] as V1Pod;
    reqs = subtract(reqs, [pick]);
    chosen.push(pick);
    pods[best] = pods[pods.length - 1] as V1Pod;
    pods.pop();
  }
  return { ok: true, pods: chosen };
}

/** getPodsToPreempt: the pods whose preemption frees `reqs` for `pod`, or the kubelet's error text. */
export function podsToPreempt(pod: V1Pod, active: V1Pod[], reqs: Requirement[]): { ok: true; pods: V1Pod[] } | { ok: false; message: string } {
  const bestEffort: V1Pod[] = [];
  const burstable: V1Pod[] = [];
  const guaranteed: V1Pod[] = [];
  for (const p of active) {
    if (!preemptable(pod, p)) continue;
    const q = getPodQOS(p);
    (q === 'BestEffort' ? bestEffort : q === 'Burstable' ? burstable : guaranteed).push(p);
  }
  const unable = subtract(reqs, [...bestEffort, ...burstable, ...guaranteed]);
  if (unable.length > 0) return { ok: false, message: `no set of running pods found to reclaim resources: ${requirementsText(unable)}` };
  const g = byDistance(guaranteed, subtract(reqs, [...bestEffort, ...burstable]));
  if (!g.ok) return g;
  const b = byDistance(burstable, subtract(reqs, [...bestEffort, ...g.pods]));
  if (!b.ok) return b;
  const be = byDistance(bestEffort, subtract(reqs, [...b.pods, ...g.pods]));
  if (!be.ok) return be;
  return { ok: true, pods: [...be.pods, ...b.pods, ...g.pods] };
}
