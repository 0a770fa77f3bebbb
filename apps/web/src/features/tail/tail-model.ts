/** Pure model of the lifecycle tail: event → row mapping, filters, and the buffer reducer (pause/resume). */
import type { EventFilter, NodeletEvent, NodeletEventType } from '../../lib/api-types.ts';
import type { Tone } from '../pods/pod-summary.ts';
import { shutdownSummary } from '../node/shutdown-model.ts';

export interface TailRow {
  seq: number;
  time: string;
  type: NodeletEventType;
  namespace?: string;
  pod?: string;
  /** Short label: the PLEG event, the phase, the op, the reason. */
  label: string;
  summary: string;
  tone: Tone;
}

export function eventPodRef(e: NodeletEvent): { namespace?: string; name?: string } | undefined {
  switch (e.type) {
    case 'pleg':
    case 'podStatus':
    case 'podConfig':
    case 'probe':
    case 'decision':
    case 'device':
      return e.pod;
    case 'k8sEvent':
      return e.involvedObject.kind === 'Pod' ? e.involvedObject : undefined;
    case 'runtime':
    case 'pressure':
    case 'gc':
    case 'shutdown':
      return undefined;
  }
}

const DEVICE_LABELS = { registered: 'PluginRegistered', registrationFailed: 'PluginRefused', disconnected: 'PluginDisconnected', devices: 'DeviceHealth', allocationFailed: 'AllocationFailed' } as const;
const DEVICE_TONES: Record<keyof typeof DEVICE_LABELS, Tone> = { registered: 'ok', registrationFailed: 'bad', disconnected: 'warn', devices: 'info', allocationFailed: 'bad' };

export function toTailRow(e: NodeletEvent): TailRow {
  const ref = eventPodRef(e);
  const base = { seq: e.seq, time: e.time, type: e.type, namespace: ref?.namespace, pod: ref?.name };
  switch (e.type) {
    case 'pleg': {
      const tone: Tone = e.pleg === 'ContainerDied' ? 'warn' : e.pleg === 'ContainerStarted' ? 'ok' : 'info';
      return { ...base, label: e.pleg, summary: `container ${e.containerName ?? e.containerId.slice(0, 12)}`, tone };
    }
    case 'podStatus': {
      const parts = e.containers.map((c) => `${c.name}=${c.state}${c.reason ? `(${c.reason})` : ''}`);
      const bad = e.containers.some((c) => c.state !== 'running' && c.reason !== undefined && c.reason !== 'Completed');
      const tone: Tone = e.phase === 'Failed' || bad ? 'bad' : e.phase === 'Running' && e.ready ? 'ok' : e.phase === 'Succeeded' ? 'done' : 'warn';
      return { ...base, label: e.phase, summary: `${e.ready ? 'ready' : 'not ready'}; ${parts.join(' ') || 'no containers'}`, tone };
    }
    case 'podConfig': {
      const tone: Tone = e.op === 'ADD' ? 'ok' : e.op === 'UPDATE' ? 'info' : 'warn';
      return { ...base, label: e.op, summary: `source ${e.source}`, tone };
    }
    case 'probe': {
      const was = e.previous && e.previous !== e.result ? ` (was ${e.previous})` : '';
      const out = e.output ? `: ${e.output}` : '';
      const tone: Tone = e.result === 'success' ? 'ok' : e.result === 'unknown' ? 'info' : e.probeType === 'liveness' ? 'bad' : 'warn';
      return { ...base, label: `${e.probeType} ${e.result}`, summary: `container ${e.container}${was}${out} · ${e.latencyMs}ms`, tone };
    }
    case 'k8sEvent': {
      const count = e.count > 1 ? ` (x${e.count})` : '';
      const field = e.involvedObject.fieldPath ? ` [${e.involvedObject.fieldPath}]` : '';
      return { ...base, label: e.reason, summary: `${e.message}${count}${field}`, tone: e.eventType === 'Warning' ? 'bad' : 'info' };
    }
    case 'decision': {
      const failed = (e.steps ?? []).filter((s) => s.error);
      const steps = (e.steps ?? []).map((s) => `${s.action} ${s.target}${s.error ? ` (${s.error})` : ''}`).join(', ');
      const label = e.decision === 'sync' ? 'Sync' : e.decision === 'admit' ? 'Admitted' : (e.reason ?? 'Refused');
      return { ...base, label, summary: e.decision === 'sync' ? steps : (e.message ?? ''), tone: e.decision === 'refuse' || failed.length ? 'warn' : 'info' };
    }
    case 'runtime':
      return { ...base, label: e.ready ? 'RuntimeReady' : 'RuntimeNotReady', summary: e.message, tone: e.ready ? 'ok' : 'bad' };
    case 'device':
      return { ...base, label: DEVICE_LABELS[e.change], summary: `${e.resource}${e.container ? ` container ${e.container}` : ''}: ${e.message}`, tone: DEVICE_TONES[e.change] };
    case 'pressure': {
      const met = e.signals.filter((s) => s.met).map((s) => s.signal);
      const label = e.conditions.length ? e.conditions.join(', ') : 'NoPressure';
      return { ...base, label, summary: met.length ? `thresholds met: ${met.join(', ')}` : 'no eviction threshold met', tone: e.conditions.length ? 'bad' : 'ok' };
    }
    case 'shutdown': {
      const tone: Tone = e.progress.phase === 'idle' ? 'ok' : e.progress.phase === 'cancelled' ? 'warn' : 'bad';
      return { ...base, label: `Shutdown ${e.progress.phase}`, summary: shutdownSummary(e.progress), tone };
    }
    case 'gc': {
      const what = e.kind === 'images' ? 'image' : 'container';
      const errs = e.errors.length ? `; ${e.errors.length} error(s): ${e.errors.join('; ')}` : '';
      return {
        ...base,
        label: `${what} GC`,
        summary: `${e.trigger}: removed ${e.removed.length}${e.removed.length ? ` (${e.removed.join(', ')})` : ''}, freed ${e.freedBytes} B${errs}`,
        tone: e.errors.length ? 'warn' : 'info',
      };
    }
  }
}

export interface TailFilter {
  /** Exact namespace ('' = any). */
  namespace: string;
  /** Substring of the pod name, case-insensitive ('' = any). */
  pod: string;
  type: NodeletEventType | '';
}

export const EMPTY_FILTER: TailFilter = { namespace: '', pod: '', type: '' };

export function rowMatches(row: TailRow, f: TailFilter): boolean {
  if (f.type && row.type !== f.type) return false;
  const ns = f.namespace.trim();
  if (ns && row.namespace !== ns) return false;
  const pod = f.pod.trim().toLowerCase();
  if (pod && !(row.pod ?? '').toLowerCase().includes(pod)) return false;
  return true;
}

/** The agent's EventFilter semantics (exact namespace and pod), for scoping live events client-side. */
export function eventInScope(e: NodeletEvent, f: EventFilter): boolean {
  if (f.afterSeq !== undefined && e.seq <= f.afterSeq) return false;
  if (f.types && f.types.length > 0 && !f.types.includes(e.type)) return false;
  const ref = eventPodRef(e);
  if (f.namespace && ref?.namespace !== f.namespace) return false;
  if (f.pod && ref?.name !== f.pod) return false;
  return true;
}

export interface TailState {
  /** Shown rows, newest first, at most max. */
  rows: TailRow[];
  /** Rows received while paused, newest first, at most max. */
  pending: TailRow[];
  paused: boolean;
  max: number;
}

export type TailAction =
  | { type: 'events'; events: NodeletEvent[] }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'reset' };

export function initialTail(max = 500): TailState {
  return { rows: [], pending: [], paused: false, max };
}

/** Merge rows by seq (later copies lose), newest first, capped. */
export function mergeNewestFirst(existing: TailRow[], incoming: TailRow[], max: number): TailRow[] {
  if (incoming.length === 0) return existing;
  const bySeq = new Map<number, TailRow>();
  for (const r of existing) bySeq.set(r.seq, r);
  for (const r of incoming) if (!bySeq.has(r.seq)) bySeq.set(r.seq, r);
  return [...bySeq.values()].sort((a, b) => b.seq - a.seq).slice(0, max);
}

export function tailReducer(state: TailState, action: TailAction): TailState {
  switch (action.type) {
    case 'events': {
      const shown = new Set(state.rows.map((r) => r.seq));
      const fresh = action.events.filter((e) => !shown.has(e.seq)).map(toTailRow);
      if (fresh.length === 0) return state;
      if (state.paused) return { ...state, pending: mergeNewestFirst(state.pending, fresh, state.max) };
      return { ...state, rows: mergeNewestFirst(state.rows, fresh, state.max) };
    }
    case 'pause':
      return state.paused ? state : { ...state, paused: true };
    case 'resume':
      return { ...state, paused: false, pending: [], rows: mergeNewestFirst(state.rows, state.pending, state.max) };
    case 'reset':
      return { ...initialTail(state.max), paused: state.paused };
  }
}
