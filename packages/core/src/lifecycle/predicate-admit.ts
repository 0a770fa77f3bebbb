/**
 * The kubelet's predicate admit handler: node selector / required node affinity, untolerated NoExecute
 * taints, and resource fit (pods, cpu, memory) against allocatable minus what the other active pods request.
 * A critical pod (static, system priority) refused only for resources is admitted by preempting other pods
 * (preemption.ts), or refused with UnexpectedAdmissionError when no set of pods frees enough.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { isCriticalPod } from '../api/pod-helpers.ts';
import { computePodRequests } from './pod-requests.ts';
import { podMatchesNodeAffinity } from './node-affinity.ts';
import { podsToPreempt, type Requirement } from './preemption.ts';
import type { AdmitNode, PodAdmitAttributes, PodAdmitHandler, PodAdmitResult } from './types.ts';

export const UnexpectedAdmissionError = 'UnexpectedAdmissionError';
export const NodeAffinityReason = 'NodeAffinity';
export const TaintTolerationReason = 'TaintToleration';
export const PodOSSelectorNodeLabelDoesNotMatch = 'PodOSSelectorNodeLabelDoesNotMatch';
export const PodOSNotSupported = 'PodOSNotSupported';
/** The kubelet compares with runtime.GOOS; Nodelet runs on Linux only. */
const NODE_OS = 'linux';
const OS_LABEL = 'kubernetes.io/os';

/**
 * The kubelet's OS checks (predicate.go rejectPodAdmissionBasedOnOSSelector / ...OSField), run before the
 * others: a pod labelled kubernetes.io/os must match the node's label (the node OS when the label is absent or
 * wrong), and spec.os.name, when set, must be the node OS.
 */
function osMismatch(pod: V1Pod): PodAdmitResult | undefined {
  const podOS = pod.metadata?.labels?.[OS_LABEL];
  // The node's label is set to the node OS when absent or different, so the comparison is with the node OS.
  if (podOS !== undefined && podOS !== NODE_OS) {
    return {
      admit: false,
      reason: PodOSSelectorNodeLabelDoesNotMatch,
      message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
    };
  }
  const osName = pod.spec?.os?.name;
  if (osName !== undefined && osName !== NODE_OS) {
    return { admit: false, reason: PodOSNotSupported, message: "Failed to admit pod as the OS field doesn't match node OS" };
  }
  return undefined;
}

function insufficient(resource: string, requested: number, used: number, capacity: number): PodAdmitResult {
  return {
    admit: false,
    reason: `OutOf${resource}`,
    message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  };
}

/** What the active pods request in all (a pod with unreadable quantities counts nothing). */
function requested(active: V1Pod[]): { cpu: number; mem: number } {
  let cpu = 0;
  let mem = 0;
  for (const p of active) {
    const r = computePodRequests(p);
    if (!r.ok) continue;
    cpu += r.requests.cpuMilli;
    mem += r.requests.memoryBytes;
  }
  return { cpu, mem };
}

/** `active`: the kubelet's active pods (kubelet/active-pods.ts decides which pods those are), all counted. */
function resourceFit(pod: V1Pod, active: V1Pod[], node: AdmitNode): PodAdmitResult {
  if (active.length + 1 > node.allocatable.pods) return insufficient('pods', 1, active.length, node.allocatable.pods);
  const mine = computePodRequests(pod);
  if (!mine.ok) return unexpected(mine.reason);
  const { cpu, mem } = requested(active);
  const want = mine.requests;
  if (want.cpuMilli > 0 && want.cpuMilli > node.allocatable.cpuMilli - cpu) {
    return insufficient('cpu', want.cpuMilli, cpu, node.allocatable.cpuMilli);
  }
  if (want.memoryBytes > 0 && want.memoryBytes > node.allocatable.memoryBytes - mem) {
    return insufficient('memory', want.memoryBytes, mem, node.allocatable.memoryBytes);
  }
  return { admit: true };
}

/** Every shortfall (InsufficientResourceError.GetInsufficientAmount), in the order the kubelet's fit lists them. */
function shortfalls(pod: V1Pod, active: V1Pod[], node: AdmitNode): Requirement[] {
  const out: Requirement[] = [];
  if (active.length + 1 > node.allocatable.pods) out.push({ resource: 'pods', quantity: active.length + 1 - node.allocatable.pods });
  const mine = computePodRequests(pod);
  if (!mine.ok) return out;
  const { cpu, mem } = requested(active);
  const want = mine.requests;
  if (want.cpuMilli > 0 && want.cpuMilli > node.allocatable.cpuMilli - cpu) out.push({ resource: 'cpu', quantity: want.cpuMilli - (node.allocatable.cpuMilli - cpu) });
  if (want.memoryBytes > 0 && want.memoryBytes > node.allocatable.memoryBytes - mem) {
    out.push({ resource: 'memory', quantity: want.memoryBytes - (node.allocatable.memoryBytes - mem) });
  }
  return out;
}

/** HandleAdmissionFailure of the critical pod admission handler: preempt, or the kubelet's refusal. */
function admitCritical(pod: V1Pod, active: V1Pod[], node: AdmitNode): PodAdmitResult {
  const sel = podsToPreempt(pod, active, shortfalls(pod, active, node));
  if (!sel.ok) {
    return {
      admit: false,
      reason: UnexpectedAdmissionError,
      message: `Unexpected error while attempting to recover from admission failure: preemption: error finding a set of pods to preempt: ${sel.message}`,
    };
  }
  return { admit: true, preempt: sel.pods };
}

function unexpected(err: string): PodAdmitResult {
  return { admit: false, reason: UnexpectedAdmissionError, message: `GeneralPredicates failed due to ${err}, which is unexpected.` };
}

function untoleratedTaint(pod: V1Pod, node: AdmitNode): string | undefined {
  for (const t of node.taints ?? []) {
    if (t.effect !== 'NoExecute') continue;
    const ok = (pod.spec?.tolerations ?? []).some((tol) => {
      if (tol.effect && tol.effect !== t.effect) return false;
      if (tol.operator === 'Exists') return !tol.key || tol.key === t.key;
      return tol.key === t.key && (tol.value ?? '') === (t.value ?? '');
    });
    if (!ok) return `{${t.key}: ${t.value ?? ''}}`;
  }
  return undefined;
}

export function admitPredicates(attrs: PodAdmitAttributes): PodAdmitResult {
  const { pod, otherPods, node } = attrs;
  if (!pod.spec || !pod.metadata?.name) return unexpected('pod has no spec or name');
  const os = osMismatch(pod);
  if (os) return os;
  const aff = podMatchesNodeAffinity(pod, node.labels, node.name);
  if (!aff.ok) return unexpected(aff.reason);
  if (!aff.matches) {
    return {
      admit: false,
      reason: NodeAffinityReason,
      message: `Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector`,
    };
  }
  const taint = untoleratedTaint(pod, node);
  if (taint) {
    return {
      admit: false,
      reason: TaintTolerationReason,
      message: `Predicate TaintToleration failed: node(s) had untolerated taint ${taint}`,
    };
  }
  const fit = resourceFit(pod, otherPods, node);
  if (!fit.admit && fit.reason !== UnexpectedAdmissionError && isCriticalPod(pod)) return admitCritical(pod, otherPods, node);
  return fit;
}

export const predicateAdmitHandler: PodAdmitHandler = { name: 'predicate', admit: admitPredicates };
