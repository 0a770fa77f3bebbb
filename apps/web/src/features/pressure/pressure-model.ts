/**
 * Pure model of the node's pressure panels: node conditions (Ready + the eviction manager's pressure
 * conditions), each eviction signal as a bar of what is available against its thresholds, and the signal
 * history patched by live `pressure` events.
 */
import type { NodeInfo, PressureBusEvent, PressureSample, PressureState, Signal, SignalState } from '../../lib/api-types.ts';
import { formatBytes } from '../../lib/format.ts';
import type { Tone } from '../pods/pod-summary.ts';

export const CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;
export type NodeConditionType = (typeof CONDITIONS)[number];

export interface ConditionRow {
  type: NodeConditionType;
  status: 'True' | 'False' | 'Unknown';
  /** Good = Ready True or a pressure False. */
  tone: Tone;
  message: string;
}

const PRESSURE_MESSAGE: Record<Exclude<NodeConditionType, 'Ready'>, [string, string]> = {
  MemoryPressure: ['kubelet has insufficient memory available', 'kubelet has sufficient memory available'],
  DiskPressure: ['kubelet has disk pressure', 'kubelet has no disk pressure'],
  PIDPressure: ['kubelet has insufficient PID available', 'kubelet has sufficient PID available'],
};

/** The four node conditions as the kubelet sets them; Unknown where the agent gave no basis. */
export function conditionRows(node: NodeInfo | undefined, state: PressureState | null | undefined): ConditionRow[] {
  return CONDITIONS.map((type): ConditionRow => {
    if (type === 'Ready') {
      if (!node) return { type, status: 'Unknown', tone: 'info', message: 'node status unknown' };
      const ready = node.runtimeReady && node.health.ok;
      const failing = node.health.checks.filter((c) => !c.ok).map((c) => c.name);
      const message = ready
        ? 'kubelet is posting ready status'
        : !node.runtimeReady
          ? `container runtime is down${node.runtimeMessage ? `: ${node.runtimeMessage}` : ''}`
          : `health checks failing: ${failing.join(', ')}`;
      return { type, status: ready ? 'True' : 'False', tone: ready ? 'ok' : 'bad', message };
    }
    if (!state) return { type, status: 'Unknown', tone: 'info', message: 'eviction manager not reporting' };
    const on = state.conditions.includes(type);
    const [yes, no] = PRESSURE_MESSAGE[type];
    return { type, status: on ? 'True' : 'False', tone: on ? 'bad' : 'ok', message: on ? yes : no };
  });
}

export type SignalUnit = 'bytes' | 'count';

export function signalUnit(s: Signal | string): SignalUnit {
  return s.endsWith('.available') && !s.startsWith('pid') ? 'bytes' : 'count';
}

export function formatSignalValue(s: Signal | string, v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return '—';
  return signalUnit(s) === 'bytes' ? formatBytes(v) : Math.round(v).toLocaleString('en-US');
}

export interface ThresholdMark {
  kind: 'hard' | 'soft';
  raw: string;
  quantity: number;
  /** Position on the bar (quantity / capacity), clamped to [0, 1]. */
  at: number;
  met: boolean;
  graceRemainingMs?: number;
  gracePeriodMs: number;
}

export interface SignalBar {
  signal: Signal;
  available?: number;
  capacity?: number;
  /** available / capacity, clamped; undefined when not observed. */
  availableFraction?: number;
  marks: ThresholdMark[];
  met: boolean;
  tone: Tone;
}

export function signalBar(s: SignalState): SignalBar {
  const cap = s.observed?.capacity;
  const frac = (v: number) => (cap && cap > 0 ? Math.min(1, Math.max(0, v / cap)) : 0);
  const marks = s.thresholds.map((t): ThresholdMark => ({
    kind: t.kind, raw: t.raw, quantity: t.quantity, at: frac(t.quantity), met: t.met, graceRemainingMs: t.graceRemainingMs, gracePeriodMs: t.gracePeriodMs,
  }));
  const met = marks.some((m) => m.met);
  const hardMet = marks.some((m) => m.met && m.kind === 'hard');
  const obs = s.observed;
  return {
    signal: s.signal,
    available: obs?.available,
    capacity: obs?.capacity,
    availableFraction: obs ? frac(obs.available) : undefined,
    marks,
    met,
    tone: !obs ? 'info' : hardMet || (met && marks.some((m) => m.met && m.graceRemainingMs === 0)) ? 'bad' : met ? 'warn' : 'ok',
  };
}

/** A live pressure event as a history sample. */
export function sampleFromEvent(e: PressureBusEvent): PressureSample {
  const values: PressureSample['values'] = {};
  for (const s of e.signals) {
    if (s.available !== undefined && s.capacity !== undefined) values[s.signal as Signal] = { available: s.available, capacity: s.capacity };
  }
  return { time: e.time, conditions: e.conditions as PressureSample['conditions'], values };
}

/** Appends samples by time (dedupe), oldest first, newest `max` kept. */
export function mergeHistory(old: readonly PressureSample[] | undefined, add: readonly PressureSample[], max = 720): PressureSample[] {
  const byTime = new Map<string, PressureSample>();
  for (const s of old ?? []) byTime.set(s.time, s);
  for (const s of add) if (!byTime.has(s.time)) byTime.set(s.time, s);
  return [...byTime.values()].sort((a, b) => Date.parse(a.time) - Date.parse(b.time)).slice(-max);
}

/** Patches the cached state with a live event: conditions, observations and which thresholds are met. */
export function patchState(state: PressureState | null | undefined, e: PressureBusEvent): PressureState | null | undefined {
  if (!state) return state;
  const bySignal = new Map(e.signals.map((s) => [s.signal, s]));
  const time = Date.parse(e.time);
  return {
    ...state,
    conditions: e.conditions as PressureState['conditions'],
    lastSync: e.time,
    signals: state.signals.map((s) => {
      const o = bySignal.get(s.signal);
      if (!o || o.available === undefined || o.capacity === undefined) return s;
      const observed = { available: o.available, capacity: o.capacity, time };
      const thresholds = s.thresholds.map((t) => ({ ...t, met: observed.available < t.quantity }));
      return { ...s, observed, thresholds };
    }),
  };
}
