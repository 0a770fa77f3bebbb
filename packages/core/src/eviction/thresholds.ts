/**
 * Eviction threshold configuration as the kubelet parses it (ParseThresholdConfig): --eviction-hard and
 * --eviction-soft ("memory.available<100Mi,nodefs.available<10%"), --eviction-soft-grace-period
 * ("memory.available=1m30s") and --eviction-minimum-reclaim ("nodefs.available=500Mi"). Errors carry the
 * kubelet's messages.
 */
import { tryParseQuantity } from '../util/quantity.ts';
import { parseGoDuration } from './duration.ts';
import { SIGNALS, type Signal, type Threshold, type ThresholdValue } from './types.ts';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Linux evictionHard defaults (pkg/kubelet/eviction/defaults_linux.go). */
export const DEFAULT_EVICTION_HARD: Readonly<Record<string, string>> = {
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
  'imagefs.available': '15%',
};

export const DEFAULT_PRESSURE_TRANSITION_PERIOD_MS = 5 * 60_000;

export interface EvictionSettings {
  evictionHard?: Record<string, string>;
  evictionSoft?: Record<string, string>;
  evictionSoftGracePeriod?: Record<string, string>;
  evictionMinimumReclaim?: Record<string, string>;
}

/** "a<b,c<d" (sep '<') or "a=b,c=d" (sep '='), as the kubelet's map flags; an empty string is an empty map. */
export function parseMapFlag(text: string, sep: '<' | '='): ParseResult<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',').map((p) => p.trim())) {
    if (pair === '') continue;
    const i = pair.indexOf(sep);
    if (i <= 0) return { ok: false, reason: `malformed pair, expect string${sep}string` };
    out[pair.slice(0, i).trim()] = pair.slice(i + 1).trim();
  }
  return { ok: true, value: out };
}

const isSignal = (s: string): s is Signal => (SIGNALS as readonly string[]).includes(s);

/** One "signal<value" statement; `undefined` when ignored (0% / 100%). */
export function parseThresholdValue(signal: string, val: string): ParseResult<ThresholdValue | undefined> {
  if (!isSignal(signal)) return { ok: false, reason: `unsupported eviction signal ${signal}` };
  if (val.endsWith('%')) {
    if (val === '0%' || val === '100%') return { ok: true, value: undefined };
    const n = Number(val.slice(0, -1));
    if (val.length < 2 || !Number.isFinite(n)) return { ok: false, reason: `invalid percentage: ${val}` };
    if (n < 0) return { ok: false, reason: `eviction percentage threshold ${signal} must be >= 0%: ${val}` };
    if (n > 100) return { ok: false, reason: `eviction percentage threshold ${signal} must be <= 100%: ${val}` };
    return { ok: true, value: { percentage: n / 100, raw: val } };
  }
  const q = tryParseQuantity(val);
  if (!q.ok) return { ok: false, reason: q.reason };
  if (q.value <= 0) return { ok: false, reason: `eviction threshold ${signal} must be positive: ${val}` };
  return { ok: true, value: { quantity: q.value, raw: val } };
}

function parseStatements(m: Record<string, string>, kind: 'hard' | 'soft'): ParseResult<Threshold[]> {
  const out: Threshold[] = [];
  for (const [signal, val] of Object.entries(m)) {
    const r = parseThresholdValue(signal, val);
    if (!r.ok) return r;
    if (r.value) out.push({ signal: signal as Signal, kind, value: r.value, gracePeriodMs: 0 });
  }
  return { ok: true, value: out };
}

function parseGracePeriods(m: Record<string, string>): ParseResult<Map<Signal, number>> {
  const out = new Map<Signal, number>();
  for (const [signal, val] of Object.entries(m)) {
    if (!isSignal(signal)) return { ok: false, reason: `unsupported eviction signal ${signal}` };
    const d = parseGoDuration(val);
    if (!d.ok) return d;
    if (d.ms < 0) return { ok: false, reason: `invalid eviction grace period specified: ${val}, must be a positive value` };
    out.set(signal, d.ms);
  }
  return { ok: true, value: out };
}

function parseMinimumReclaims(m: Record<string, string>): ParseResult<Map<Signal, ThresholdValue>> {
  const out = new Map<Signal, ThresholdValue>();
  for (const [signal, val] of Object.entries(m)) {
    if (!isSignal(signal)) return { ok: false, reason: `unsupported eviction signal ${signal}` };
    if (val.endsWith('%')) {
      const n = Number(val.slice(0, -1));
      if (val.length < 2 || !Number.isFinite(n)) return { ok: false, reason: `invalid percentage: ${val}` };
      if (n < 0) return { ok: false, reason: `negative eviction minimum reclaim specified for ${signal}` };
      if (n > 100) return { ok: false, reason: `eviction minimum reclaim for ${signal} must be <= 100%: ${val}` };
      out.set(signal, { percentage: n / 100, raw: val });
      continue;
    }
    const q = tryParseQuantity(val);
    if (!q.ok) return { ok: false, reason: q.reason };
    if (q.value < 0) return { ok: false, reason: `negative eviction minimum reclaim specified for ${signal}` };
    out.set(signal, { quantity: q.value, raw: val });
  }
  return { ok: true, value: out };
}

/** Hard + soft thresholds with grace periods and minimum reclaims; hard defaults when evictionHard is unset. */
export function parseThresholdConfig(s: EvictionSettings): ParseResult<Threshold[]> {
  const hard = parseStatements(s.evictionHard ?? DEFAULT_EVICTION_HARD, 'hard');
  if (!hard.ok) return hard;
  const soft = parseStatements(s.evictionSoft ?? {}, 'soft');
  if (!soft.ok) return soft;
  const graces = parseGracePeriods(s.evictionSoftGracePeriod ?? {});
  if (!graces.ok) return graces;
  const reclaims = parseMinimumReclaims(s.evictionMinimumReclaim ?? {});
  if (!reclaims.ok) return reclaims;
  for (const t of soft.value) {
    const g = graces.value.get(t.signal);
    if (g === undefined) return { ok: false, reason: `grace period must be specified for the soft eviction threshold ${t.signal}` };
    t.gracePeriodMs = g;
  }
  const all = [...hard.value, ...soft.value];
  for (const t of all) {
    const r = reclaims.value.get(t.signal);
    if (r) t.minReclaim = r;
  }
  return { ok: true, value: all };
}

/** A threshold value in absolute units for the given capacity. */
export function thresholdQuantity(v: ThresholdValue, capacity: number): number {
  return 'quantity' in v ? v.quantity : Math.round(v.percentage * capacity);
}
