/** Pure view models for pods and containers (what the table and the detail page show). */
import type { V1ContainerStatus, V1Pod, WireContainerStatus, WirePod } from '../../lib/api-types.ts';
import { toMillis } from '../../lib/format.ts';

export type Tone = 'ok' | 'warn' | 'bad' | 'done' | 'info';

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
  namespace: string;
  name: string;
  phase: string;
  phaseTone: Tone;
  /** kubectl's STATUS column: the most telling container reason, else the phase. */
  status: string;
  readyCount: number;
  total: number;
  restarts: number;
  containers: ContainerStateView[];
  createdMs?: number;
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

export function phaseTone(phase: string): Tone {
  switch (phase) {
    case 'Running': return 'ok';
    case 'Succeeded': return 'done';
    case 'Pending': return 'warn';
    case 'Failed': return 'bad';
    default: return 'info';
  }
}

function podStatusText(phase: string, containers: ContainerStateView[], deleting: boolean, podReason?: string): string {
  if (deleting) return 'Terminating';
  // kubectl: a pod-level reason (Evicted, NodeLost, ...) is the status.
  if (podReason) return podReason;
  const init = containers.filter((c) => c.init && c.state !== 'terminated' && c.tone === 'bad');
  if (init[0]?.reason) return `Init:${init[0].reason}`;
  const app = containers.filter((c) => !c.init);
  const bad = app.find((c) => c.tone === 'bad' && c.reason);
  if (bad?.reason) return bad.reason;
  const waiting = app.find((c) => c.state === 'waiting' && c.reason);
  if (waiting?.reason && phase !== 'Running') return waiting.reason;
  return phase;
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
  const phase = pod.status?.phase ?? 'Unknown';
  const init = (pod.status?.initContainerStatuses ?? []).map((c) => containerStateView(c, true));
  const appStatuses: Array<V1ContainerStatus | WireContainerStatus> = pod.status?.containerStatuses ?? [];
  const app = appStatuses.map((c) => containerStateView(c));
  // Containers declared in the spec but not yet reported are waiting.
  for (const c of pod.spec?.containers ?? []) {
    if (!appStatuses.some((s) => s.name === c.name)) app.push({ name: c.name, init: false, state: 'waiting', reason: 'ContainerCreating', ready: false, restartCount: 0, tone: 'warn' });
  }
  const containers = [...init, ...app];
  const status = podStatusText(phase, containers, Boolean(pod.metadata?.deletionTimestamp), pod.status?.reason);
  return {
    key: `${namespace}/${name}`, namespace, name, phase, status,
    phaseTone: status !== phase ? (containers.some((c) => c.tone === 'bad') ? 'bad' : phaseTone(phase)) : phaseTone(phase),
    readyCount: app.filter((c) => c.ready).length, total: app.length,
    restarts: containers.reduce((n, c) => n + c.restartCount, 0),
    containers, createdMs: podCreatedMs(pod),
  };
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
