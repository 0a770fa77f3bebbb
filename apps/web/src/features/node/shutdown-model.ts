/**
 * Pure model of the node page's graceful shutdown panel: the agent's shutdown progress (shutdown.progress, kept
 * live by `shutdown` events) as groups and pods with countdowns. A group's countdown runs from its start for its
 * period (the manager waits that long at most); a pod's from its kill for its grace (min(own, group's)).
 */
import type { ShutdownBusEvent, ShutdownProgress } from '../../lib/api-types.ts';
import { toMillis } from '../../lib/format.ts';
import type { Tone } from '../pods/pod-summary.ts';

/** scheduling.SystemCriticalPriority (system-cluster-critical and above). */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

export interface ShutdownPodView {
  key: string;
  namespace: string;
  name: string;
  state: 'terminating' | 'terminated' | 'failed';
  gracePeriodSeconds: number;
  /** Seconds of grace left while terminating (0 once over, kill still in flight). */
  remainingSeconds?: number;
  error?: string;
  tone: Tone;
}

export interface ShutdownGroupView {
  priority: number;
  label: string;
  periodSeconds: number;
  state: 'pending' | 'running' | 'done' | 'timedOut';
  /** Seconds left of the group's period while it runs. */
  remainingSeconds?: number;
  terminating: number;
  pods: ShutdownPodView[];
  tone: Tone;
}

export interface ShutdownView {
  phase: ShutdownProgress['phase'];
  headline: string;
  tone: Tone;
  groups: ShutdownGroupView[];
  /** Pods still terminating, every group. */
  terminating: number;
}

/** How the console names a group: regular (priority 0), critical (system-critical), else its priority. */
export function groupLabel(priority: number): string {
  if (priority >= SYSTEM_CRITICAL_PRIORITY) return 'critical pods';
  if (priority === 0) return 'regular pods';
  return `priority ≥ ${priority}`;
}

/** Whole seconds left of `seconds` from `start` at `now`, between 0 and `seconds`. */
export function secondsLeft(start: string | undefined, seconds: number, now: number): number | undefined {
  const t = toMillis(start);
  if (t === undefined) return undefined;
  return Math.min(seconds, Math.max(0, Math.ceil((t + seconds * 1000 - now) / 1000)));
}

const GROUP_TONE: Record<ShutdownGroupView['state'], Tone> = { pending: 'info', running: 'warn', done: 'done', timedOut: 'bad' };
const POD_TONE: Record<ShutdownPodView['state'], Tone> = { terminating: 'warn', terminated: 'done', failed: 'bad' };

export function shutdownView(p: ShutdownProgress | null | undefined, now: number): ShutdownView | undefined {
  if (!p) return undefined;
  const groups: ShutdownGroupView[] = p.groups.map((g) => {
    const pods: ShutdownPodView[] = g.pods.map((x) => ({
      key: x.uid || `${x.namespace}/${x.name}`,
      namespace: x.namespace,
      name: x.name,
      state: x.state,
      gracePeriodSeconds: x.gracePeriodSeconds,
      ...(x.state === 'terminating' ? { remainingSeconds: secondsLeft(x.startedAt, x.gracePeriodSeconds, now) ?? x.gracePeriodSeconds } : {}),
      ...(x.error ? { error: x.error } : {}),
      tone: POD_TONE[x.state],
    }));
    return {
      priority: g.priority,
      label: groupLabel(g.priority),
      periodSeconds: g.shutdownGracePeriodSeconds,
      state: g.state,
      ...(g.state === 'running' ? { remainingSeconds: secondsLeft(g.startedAt, g.shutdownGracePeriodSeconds, now) ?? g.shutdownGracePeriodSeconds } : {}),
      terminating: pods.filter((x) => x.state === 'terminating').length,
      pods,
      tone: GROUP_TONE[g.state],
    };
  });
  const terminating = groups.reduce((n, g) => n + g.terminating, 0);
  const periods = groups.map((g) => `${g.label} ${g.periodSeconds} s`).join(', ');
  switch (p.phase) {
    case 'idle':
      return { phase: p.phase, headline: `Graceful shutdown armed: ${periods}`, tone: 'ok', groups, terminating };
    case 'shuttingDown':
      return { phase: p.phase, headline: `Node is shutting down: ${terminating} pod${terminating === 1 ? '' : 's'} terminating`, tone: 'bad', groups, terminating };
    case 'done':
      return { phase: p.phase, headline: 'Shutdown processed: pods terminated, the machine goes down', tone: 'bad', groups, terminating };
    case 'cancelled':
      return { phase: p.phase, headline: `Shutdown cancelled; graceful shutdown armed again: ${periods}`, tone: 'warn', groups, terminating };
  }
}

/** The progress a live `shutdown` event brings (events carry all of it; an older one never replaces a newer). */
export function progressFromEvent(old: { progress: ShutdownProgress; seq: number } | undefined, e: ShutdownBusEvent): { progress: ShutdownProgress; seq: number } {
  return old && old.seq >= e.seq ? old : { progress: e.progress, seq: e.seq };
}

/** One line for the lifecycle tail: the phase and each started group's pods still terminating. */
export function shutdownSummary(p: ShutdownProgress): string {
  const started = p.groups.filter((g) => g.state !== 'pending');
  const parts = started.map((g) => `${groupLabel(g.priority)} ${g.state} (${g.pods.filter((x) => x.state === 'terminating').length}/${g.pods.length} terminating)`);
  return parts.length ? parts.join('; ') : `groups: ${p.groups.map((g) => `${groupLabel(g.priority)} ${g.shutdownGracePeriodSeconds} s`).join(', ')}`;
}
