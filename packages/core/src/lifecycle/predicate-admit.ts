/**
 * The kubelet's predicate admit handler: node selector / required node affinity, untolerated NoExecute
 * taints, and resource fit (pods, cpu, memory) against allocatable minus what the other active pods request.
 * Critical pods (static, system priority) are admitted despite resource shortage (the kubelet would preempt).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { isCriticalPod } from '../api/pod-helpers.ts';
import { computePodRequests } from './pod-requests.ts';
import { podMatchesNodeAffinity } from './node-affinity.ts';
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

/** `active`: the kubelet's active pods (kubelet/active-pods.ts decides which pods those are), all counted. */
function resourceFit(pod: V1Pod, active: V1Pod[], node: AdmitNode): PodAdmitResult {
  if (active.length + 1 > node.allocatable.pods) return insufficient('pods', 1, active.length, node.allocatable.pods);
  const mine = computePodRequests(pod);
  if (!mine.ok) return unexpected(mine.reason);
  let cpu = 0;
  let mem = 0;
  for (const p of active) {
    const r = computePodRequests(p);
    if (!r.ok) continue;
    cpu += r.requests.cpuMilli;
    mem += r.requests.memoryBytes;
  }
  const want = mine.requests;
  if (want.cpuMilli > 0 && want.cpuMilli > node.allocatable.cpuMilli - cpu) {
    return insufficient('cpu', want.cpuMilli, cpu, node.allocatable.cpuMilli);
  }
  if (want.memoryBytes > 0 && want.memoryBytes > node.allocatable.memoryBytes - mem) {
    return insufficient('memory', want.memoryBytes, mem, node.allocatable.memoryBytes);
  }
  return { admit: true };
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
  if (!fit.admit && fit.reason !== UnexpectedAdmissionError && isCriticalPod(pod)) return { admit: true };
  return fit;
}

export const predicateAdmitHandler: PodAdmitHandler = { name: 'predicate', admit: admitPredicates };
