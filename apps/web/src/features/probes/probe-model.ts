/**
 * Pure model of the probe panel: the agent's probe table (probes.list) patched by live `probe` events, and
 * a per-(container, probe type) timeline of recent results for the SVG strip.
 */
import type { ProbeBusEvent, ProbeResult, ProbeType, ProbeWorkerInfo } from '../../lib/api-types.ts';
import { toMillis } from '../../lib/format.ts';
import type { Tone } from '../pods/pod-summary.ts';

export const PROBE_TYPES: readonly ProbeType[] = ['startup', 'liveness', 'readiness'];

export interface ProbeTick {
  seq: number;
  time: string;
  result: ProbeResult;
  /** The worker's threshold-counted result after this run, when the agent sent it. */
  effective?: ProbeResult;
  output?: string;
  latencyMs: number;
}

/** Recent results per `${container}/${probeType}`, oldest first. */
export type ProbeTimelines = Record<string, ProbeTick[]>;

export const timelineKey = (container: string, type: ProbeType): string => `${container}/${type}`;

/** Folds probe events into the timelines: dedupe by seq, oldest first, keep the newest `max` per probe. */
export function addProbeEvents(state: ProbeTimelines, events: readonly ProbeBusEvent[], max = 60): ProbeTimelines {
  if (events.length === 0) return state;
  const touched = new Map<string, ProbeTick[]>();
  for (const e of events) {
    const key = timelineKey(e.container, e.probeType);
    const list = touched.get(key) ?? [...(state[key] ?? [])];
    if (list.some((t) => t.seq === e.seq)) continue;
    list.push({ seq: e.seq, time: e.time, result: e.result, effective: e.effective, output: e.output, latencyMs: e.latencyMs });
    touched.set(key, list);
  }
  if (touched.size === 0) return state;
  const next = { ...state };
  for (const [key, list] of touched) next[key] = list.sort((a, b) => a.seq - b.seq).slice(-max);
  return next;
}

/** The probe table row after a live event: the last run, and the effective result when the event has it. */
export function patchWorker(w: ProbeWorkerInfo, e: ProbeBusEvent): ProbeWorkerInfo {
  if (w.container !== e.container || w.probeType !== e.probeType) return w;
  const lastRunMs = toMillis(w.lastRun?.time);
  const eventMs = toMillis(e.time) ?? 0;
  if (lastRunMs !== undefined && lastRunMs > eventMs) return w;
  const consecutive = w.lastResult === e.result ? w.consecutive + 1 : 1;
  return {
    ...w,
    effective: e.effective ?? w.effective,
    lastResult: e.result,
    consecutive,
    lastRun: { time: e.time, result: e.result, output: e.output ?? '', latencyMs: e.latencyMs },
  };
}

/** Applies an event to a cached probe list; `found: false` when no row matches (refetch the table). */
export function patchWorkers(list: ProbeWorkerInfo[] | undefined, e: ProbeBusEvent): { list: ProbeWorkerInfo[] | undefined; found: boolean } {
  if (!list) return { list, found: false };
  const i = list.findIndex((w) => w.pod.uid === e.pod.uid && w.container === e.container && w.probeType === e.probeType);
  if (i < 0) return { list, found: false };
  const next = list.slice();
  next[i] = patchWorker(list[i]!, e);
  return { list: next, found: true };
}

export interface ProbeView {
  container: string;
  type: ProbeType;
  /** What drives ready / kills: the effective result, else the last run's. */
  result: ProbeResult;
  tone: Tone;
  label: string;
  /** The last runs' own result and how many in a row ('' before the first run). */
  streak: string;
  handler: string;
  target: string;
  thresholds: string;
  onHold: boolean;
  lastOutput?: string;
  lastLatencyMs?: number;
  lastRunTime?: string;
}

export function resultTone(result: ProbeResult | undefined, type: ProbeType): Tone {
  if (result === 'success') return 'ok';
  if (result === 'failure') return type === 'liveness' ? 'bad' : 'warn';
  return 'info';
}

export function probeView(w: ProbeWorkerInfo): ProbeView {
  const result = w.effective ?? w.lastResult ?? 'unknown';
  const runs = w.lastResult && w.consecutive > 0 ? `last ${w.consecutive === 1 ? 'run' : `${w.consecutive} runs`}: ${w.lastResult}` : '';
  // The worker stops probing once a startup probe decided, or after a liveness failure until the restart.
  const held = w.probeType === 'startup' && result === 'success' ? 'done: the container started' : 'on hold until the container restarts';
  const streak = w.onHold ? held : runs;
  return {
    container: w.container,
    type: w.probeType,
    result,
    tone: resultTone(result, w.probeType),
    label: result,
    streak,
    handler: w.handler,
    target: w.target,
    thresholds: `delay ${w.initialDelaySeconds}s · period ${w.periodSeconds}s · timeout ${w.timeoutSeconds}s · success ${w.successThreshold} · failure ${w.failureThreshold}`,
    onHold: w.onHold,
    lastOutput: w.lastRun?.output || undefined,
    lastLatencyMs: w.lastRun?.latencyMs,
    lastRunTime: w.lastRun?.time,
  };
}

/** Probe views of one container, startup → liveness → readiness. */
export function containerProbes(workers: readonly ProbeWorkerInfo[], container: string): ProbeView[] {
  return workers
    .filter((w) => w.container === container)
    .sort((a, b) => PROBE_TYPES.indexOf(a.probeType) - PROBE_TYPES.indexOf(b.probeType))
    .map(probeView);
}

/** Failure messages of a timeline, newest first, consecutive repeats collapsed. */
export function recentFailures(ticks: readonly ProbeTick[], max = 5): Array<{ time: string; output: string; count: number }> {
  const out: Array<{ time: string; output: string; count: number }> = [];
  for (let i = ticks.length - 1; i >= 0 && out.length <= max; i--) {
    const t = ticks[i]!;
    if (t.result !== 'failure') continue;
    const output = t.output || 'probe failed (no output)';
    const last = out[out.length - 1];
    if (last && last.output === output) last.count += 1;
    else out.push({ time: t.time, output, count: 1 });
  }
  return out.slice(0, max);
}

export interface StripTick {
  x: number;
  width: number;
  tone: Tone;
  tick: ProbeTick;
}

/** Lays the newest `slots` ticks out right-aligned in a strip `width` wide (one slot per run). */
export function stripLayout(ticks: readonly ProbeTick[], type: ProbeType, width: number, slots: number): StripTick[] {
  const slot = width / Math.max(1, slots);
  const shown = ticks.slice(-slots);
  const offset = slots - shown.length;
  return shown.map((tick, i) => ({
    x: (offset + i) * slot + 1,
    width: Math.max(1, slot - 2),
    tone: resultTone(tick.result, type),
    tick,
  }));
}
