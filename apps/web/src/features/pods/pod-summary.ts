/** Pure view models for pods and containers (what the table and the detail page show). */
import type { V1ContainerStatus, V1Pod, WireContainerStatus, WirePod } from '../../lib/api-types.ts';
import { toMillis } from '../../lib/format.ts';
import { kubectlPodColumns, statusTone, type Tone } from './kubectl-status.ts';

export type { Tone };

export interface ContainerStateView {
  name: string;
  init: boolean;
  state: 'running' | 'waiting' | 'terminated' | 'unknown';
  reason?: string;
  message?: string;
  exitCode?: number;
  ready: boolean;
  restartCount: number;
  tone: Tone;
}

export interface PodRowView {
  key: string;
  uid: string;
  namespace: string;
  name: string;
  phase: string;
  /** The colour of `status` (statusTone). */
  phaseTone: Tone;
  /** kubectl's STATUS column (printPod). */
  status: string;
  readyCount: number;
  total: number;
  restarts: number;
  lastRestartMs?: number;
  containers: ContainerStateView[];
  createdMs?: number;
  labels: Record<string, string>;
  podIP?: string;
  qosClass?: string;
  /** metadata.deletionTimestamp: when the API server deletes the pod at the latest (deletion time + grace). */
  deletionMs?: number;
  deletionGracePeriodSeconds?: number;
  /** The agent's "why isn't it running?" (pods.list rows carry it), while the pod is not Running and Ready. */
  why?: string;
}

/** Waiting reasons that mean something is wrong (as opposed to ContainerCreating, PodInitializing). */
const BAD_WAITING = new Set([
  'CrashLoopBackOff', 'ErrImagePull', 'ImagePullBackOff', 'ErrImageNeverPull', 'InvalidImageName',
  'CreateContainerConfigError', 'CreateContainerError', 'RunContainerError', 'PreStartHookError', 'PostStartHookError',
]);

export function containerStateView(cs: V1ContainerStatus | WireContainerStatus, init = false): ContainerStateView {
  const base = { name: cs.name, init, ready: cs.ready, restartCount: cs.restartCount ?? 0 };
  const s = cs.state;
  if (s?.running) return { ...base, state: 'running', tone: cs.ready || init ? 'ok' : 'warn' };
  if (s?.waiting) {
    const reason = s.waiting.reason;
    return { ...base, state: 'waiting', reason, message: s.waiting.message, tone: reason && BAD_WAITING.has(reason) ? 'bad' : 'warn' };
  }
  if (s?.terminated) {
    const t = s.terminated;
    const ok = t.exitCode === 0;
    return { ...base, state: 'terminated', reason: t.reason ?? (ok ? 'Completed' : 'Error'), message: t.message, exitCode: t.exitCode, tone: ok ? 'done' : 'bad' };
  }
  return { ...base, state: 'unknown', tone: 'warn' };
}

/** Static pods carry no creationTimestamp: fall back to the start time, then to when the source saw them. */
export function podCreatedMs(pod: V1Pod | WirePod): number | undefined {
  return (
    toMillis(pod.metadata?.creationTimestamp) ??
    toMillis(pod.status?.startTime) ??
    toMillis(pod.metadata?.annotations?.['kubernetes.io/config.seen'])
  );
}

export function podRowView(pod: V1Pod | WirePod): PodRowView {
  const namespace = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? '?';
  const init = (pod.status?.initContainerStatuses ?? []).map((c) => containerStateView(c, true));
  const app = (pod.status?.containerStatuses ?? []).map((c) => containerStateView(c));
  const cols = kubectlPodColumns(pod);
  const deletionMs = toMillis(pod.metadata?.deletionTimestamp);
  return {
    key: `${namespace}/${name}`, uid: pod.metadata?.uid ?? '', namespace, name,
    phase: pod.status?.phase ?? 'Unknown', status: cols.status, phaseTone: statusTone(cols),
    readyCount: cols.readyCount, total: cols.total, restarts: cols.restarts, lastRestartMs: cols.lastRestartMs,
    containers: [...init, ...app], createdMs: podCreatedMs(pod),
    labels: { ...(pod.metadata?.labels ?? {}) }, podIP: pod.status?.podIP || undefined, qosClass: pod.status?.qosClass,
    ...(deletionMs !== undefined ? { deletionMs, deletionGracePeriodSeconds: pod.metadata?.deletionGracePeriodSeconds } : {}),
    ...('why' in pod && pod.why && !(pod.status?.phase === 'Running' && cols.total > 0 && cols.readyCount === cols.total) ? { why: pod.why.text } : {}),
  };
}

/**
 * Seconds left of a Terminating pod's grace period (deletionTimestamp − now, never below 0, never above the
 * grace period itself: the page's clock ticks every 5 s until a pod terminates, so its first reading can be old).
 */
export function graceLeftSeconds(row: Pick<PodRowView, 'deletionMs' | 'deletionGracePeriodSeconds'>, nowMs: number): number | undefined {
  if (row.deletionMs === undefined) return undefined;
  const left = Math.max(0, Math.ceil((row.deletionMs - nowMs) / 1000));
  return row.deletionGracePeriodSeconds === undefined ? left : Math.min(left, row.deletionGracePeriodSeconds);
}

export function sortPodRows(rows: PodRowView[]): PodRowView[] {
  return [...rows].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
}

/** One-line description of a container state: "running", "waiting: CrashLoopBackOff", "terminated: Error (1)". */
export function describeState(c: Pick<ContainerStateView, 'state' | 'reason' | 'exitCode'>): string {
  if (c.state === 'running' || c.state === 'unknown') return c.state;
  const code = c.exitCode !== undefined ? ` (${c.exitCode})` : '';
  return c.reason ? `${c.state}: ${c.reason}${code}` : `${c.state}${code}`;
}
