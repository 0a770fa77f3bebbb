/**
 * Pure pod condition and phase generators, following upstream pkg/kubelet/status/generate.go and the
 * kubelet's getPhase. Inputs: the pod spec, the container statuses (init + app together), the phase.
 */
import type { V1ContainerStatus, V1Pod, V1PodCondition } from '@kubernetes/client-node';
import type { PodPhase } from '../api/types.ts';
import { isRestartableInitContainer } from '../api/pod-helpers.ts';

export const UnknownContainerStatuses = 'UnknownContainerStatuses';
export const PodCompleted = 'PodCompleted';
export const PodFailedReason = 'PodFailed';
export const ContainersNotReady = 'ContainersNotReady';
export const ContainersNotInitialized = 'ContainersNotInitialized';
export const ReadinessGatesNotReady = 'ReadinessGatesNotReady';

/** Condition types owned (generated) by the kubelet; others are preserved as they are. */
export const KUBELET_CONDITIONS = ['PodScheduled', 'Ready', 'Initialized', 'ContainersReady', 'PodReadyToStartContainers'];

type Statuses = V1ContainerStatus[] | undefined;

function find(statuses: Statuses, name: string): V1ContainerStatus | undefined {
  return statuses?.find((s) => s.name === name);
}

/** Go's %s of a []string: "[a b]". */
function list(names: string[]): string {
  return `[${names.join(' ')}]`;
}

function cond(type: string, status: 'True' | 'False', reason?: string, message?: string): V1PodCondition {
  const c: V1PodCondition = { type, status };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

/** Some regular (app) container is running or has terminated. */
export function hasAnyRegularContainerStarted(pod: V1Pod, statuses: Statuses): boolean {
  if (!statuses || statuses.length === 0) return false;
  const names = new Set((pod.spec?.containers ?? []).map((c) => c.name));
  return statuses.some((s) => names.has(s.name) && (s.state?.running !== undefined || s.state?.terminated !== undefined));
}

export function generateContainersReadyCondition(pod: V1Pod, statuses: Statuses, phase: string | undefined): V1PodCondition {
  if (statuses === undefined) return cond('ContainersReady', 'False', UnknownContainerStatuses);
  const unknown: string[] = [];
  const unready: string[] = [];
  const check = (name: string) => {
    const s = find(statuses, name);
    if (!s) unknown.push(name);
    else if (!s.ready) unready.push(name);
  };
  for (const c of pod.spec?.initContainers ?? []) if (isRestartableInitContainer(c)) check(c.name);
  for (const c of pod.spec?.containers ?? []) check(c.name);
  if (phase === 'Succeeded' && unknown.length === 0) return cond('ContainersReady', 'False', PodCompleted);
  if (phase === 'Failed') return cond('ContainersReady', 'False', PodFailedReason);
  const msgs: string[] = [];
  if (unknown.length > 0) msgs.push(`containers with unknown status: ${list(unknown)}`);
  if (unready.length > 0) msgs.push(`containers with unready status: ${list(unready)}`);
  if (msgs.length > 0) return cond('ContainersReady', 'False', ContainersNotReady, msgs.join(', '));
  return cond('ContainersReady', 'True');
}

/** Ready = ContainersReady and every readiness gate's condition True. */
export function generatePodReadyCondition(
  pod: V1Pod,
  conditions: V1PodCondition[] | undefined,
  statuses: Statuses,
  phase: string | undefined,
): V1PodCondition {
  const cr = generateContainersReadyCondition(pod, statuses, phase);
  if (cr.status !== 'True') return { ...cr, type: 'Ready' };
  const msgs: string[] = [];
  for (const gate of pod.spec?.readinessGates ?? []) {
    const c = conditions?.find((x) => x.type === gate.conditionType);
    if (!c) msgs.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True') {
      msgs.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
    }
  }
  if (msgs.length > 0) return cond('Ready', 'False', ReadinessGatesNotReady, msgs.join(', '));
  return cond('Ready', 'True');
}

export function generatePodInitializedCondition(pod: V1Pod, statuses: Statuses, phase: string | undefined): V1PodCondition {
  const inits = pod.spec?.initContainers ?? [];
  if (statuses === undefined && inits.length > 0) return cond('Initialized', 'False', UnknownContainerStatuses);
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const s = find(statuses, c.name);
    if (!s) {
      unknown.push(c.name);
      continue;
    }
    const done = isRestartableInitContainer(c) ? s.started === true : s.ready;
    if (!done) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return cond('Initialized', 'True', PodCompleted);
  if (hasAnyRegularContainerStarted(pod, statuses)) return cond('Initialized', 'True');
  const msgs: string[] = [];
  if (unknown.length > 0) msgs.push(`containers with unknown status: ${list(unknown)}`);
  if (incomplete.length > 0) msgs.push(`containers with incomplete status: ${list(incomplete)}`);
  if (msgs.length > 0) return cond('Initialized', 'False', ContainersNotInitialized, msgs.join(', '));
  return cond('Initialized', 'True');
}

/** True when the pod's sandbox exists with networking set up (no new sandbox needed). */
export function generatePodReadyToStartContainersCondition(sandboxReady: boolean): V1PodCondition {
  return cond('PodReadyToStartContainers', sandboxReady ? 'True' : 'False');
}

export function generatePodScheduledCondition(): V1PodCondition {
  return cond('PodScheduled', 'True');
}

/**
 * The kubelet-owned conditions in the kubelet's order (PodReadyToStartContainers, Initialized, Ready,
 * ContainersReady, PodScheduled) after the pod's other conditions, which are preserved.
 */
export function generateConditions(
  pod: V1Pod,
  statuses: Statuses,
  phase: string | undefined,
  sandboxReady: boolean,
): V1PodCondition[] {
  const out = (pod.status?.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.includes(c.type));
  out.push(generatePodReadyToStartContainersCondition(sandboxReady));
  out.push(generatePodInitializedCondition(pod, statuses, phase));
  out.push(generatePodReadyCondition(pod, out, statuses, phase));
  out.push(generateContainersReadyCondition(pod, statuses, phase));
  out.push(generatePodScheduledCondition());
  return out;
}

export { getPhase } from './phase.ts';
export type { PodPhase };
