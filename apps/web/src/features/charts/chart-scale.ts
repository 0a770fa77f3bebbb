/**
 * Axis math of the console's one time chart: "nice" value ticks (1/2/5 × 10^n in the unit the values are shown in:
 * millicores or cores, B/KiB/MiB/GiB, per second for rates), time ticks on round seconds / minutes, the time
 * windows every chart on a page shares, and a point-count reduction for long windows.
 */

export type ChartUnit = 'cores' | 'bytes' | 'bytesPerSecond';

export interface Point {
  t: number;
  v: number;
}

export interface ValueAxis {
  /** Top of the axis (the last tick), in raw values (cores, bytes, bytes/s). */
  max: number;
  ticks: Array<{ value: number; label: string }>;
  /** The unit the labels are written in (e.g. 'MiB/s', 'm' for millicores). */
  unit: string;
}

/** The smallest 1/2/5 × 10^n step at or above `rough`. */
export function niceStep(rough: number): number {
  if (!Number.isFinite(rough) || rough <= 0) return 1;
  const mag = 10 ** Math.floor(Math.log10(rough));
  const m = [1, 2, 5, 10].find((k) => k * mag >= rough * (1 - 1e-9)) ?? 10;
  return Number((m * mag).toPrecision(12));
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** The display unit for values up to `max`: its name and how many raw units one of it is. */
export function displayUnit(max: number, unit: ChartUnit): { name: string; size: number } {
  if (unit === 'cores') return max > 0 && max < 1 ? { name: 'm', size: 0.001 } : { name: ' cores', size: 1 };
  let i = 0;
  while (i < BYTE_UNITS.length - 1 && max >= 1024 ** (i + 1)) i++;
  const name = BYTE_UNITS[i]!;
  return { name: unit === 'bytesPerSecond' ? ` ${name}/s` : ` ${name}`, size: 1024 ** i };
}

/** Decimals needed to write multiples of `step` without repeating a label. */
function decimalsOf(step: number): number {
  return step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step) - 1e-9));
}

/** A value written in the display unit: '250m', '1.5 cores', '12 MiB', '3.5 KiB/s'. */
export function formatInUnit(v: number, u: { name: string; size: number }, decimals: number): string {
  const n = v / u.size;
  return `${n.toFixed(decimals)}${u.name}`;
}

/**
 * The value axis for data up to `dataMax`: ticks 0, step, 2·step … with a 1/2/5 step in the display unit, at
 * most `target` + 1 ticks, the top tick at or above the data.
 */
export function valueAxis(dataMax: number, unit: ChartUnit, target = 4): ValueAxis {
  // No data (or all zero): an axis up to one core / 1 KiB.
  const max = Number.isFinite(dataMax) && dataMax > 0 ? dataMax : unit === 'cores' ? 1 : 1024;
  const u = displayUnit(max, unit);
  const scaled = max / u.size;
  const step = niceStep(scaled / target);
  const n = Math.max(1, Math.ceil(scaled / step - 1e-9));
  const dec = decimalsOf(step);
  const ticks = Array.from({ length: n + 1 }, (_, i) => {
    const value = Number((i * step * u.size).toPrecision(12));
    return { value, label: i === 0 ? '0' : formatInUnit(value, u, dec) };
  });
  return { max: ticks[ticks.length - 1]!.value, ticks, unit: u.name.trim() };
}

/** A value for legends and tooltips: three significant digits in the unit that fits it. */
export function formatValue(v: number | undefined, unit: ChartUnit): string {
  if (v === undefined || !Number.isFinite(v)) return '—';
  if (v === 0) return unit === 'cores' ? '0' : unit === 'bytes' ? '0 B' : '0 B/s';
  const u = displayUnit(Math.abs(v), unit);
  const n = Math.abs(v) / u.size;
  return formatInUnit(v, u, n >= 100 ? 0 : n >= 10 ? 1 : 2);
}

const TIME_STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

/**
 * Time ticks between start and end (epoch ms): multiples of a round step (1/2/5/10/15/30 s, 1/2/5/10/15/30 min,
 * 1/2 h) giving at most `target` ticks; labels HH:MM:SS (UTC, as the rest of the console), HH:MM for minute steps.
 */
export function timeTicks(start: number, end: number, target = 5): Array<{ t: number; label: string }> {
  const span = Math.max(1, end - start);
  const stepS = TIME_STEPS_S.find((s) => span / (s * 1000) <= target) ?? TIME_STEPS_S[TIME_STEPS_S.length - 1]!;
  const step = stepS * 1000;
  const out: Array<{ t: number; label: string }> = [];
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) {
    const iso = new Date(t).toISOString();
    out.push({ t, label: stepS % 60 === 0 ? iso.slice(11, 16) : iso.slice(11, 19) });
  }
  return out;
}

export const CHART_WINDOWS = [
  { id: '1m', label: '1 m', ms: 60_000 },
  { id: '10m', label: '10 m', ms: 600_000 },
  { id: '1h', label: '1 h', ms: 3_600_000 },
] as const;

export type ChartWindowId = (typeof CHART_WINDOWS)[number]['id'];

export function windowMs(id: ChartWindowId): number {
  return CHART_WINDOWS.find((w) => w.id === id)!.ms;
}

/**
 * At most `buckets` points over [start, end]: the points of each equal time bucket are replaced by their
 * mean (last time of the bucket), so an hour of 1 s samples draws as a few hundred points. Points outside are dropped.
 */
export function downsample(points: readonly Point[], start: number, end: number, buckets: number): Point[] {
  const inside = points.filter((p) => p.t >= start && p.t <= end);
  if (inside.length <= buckets) return inside;
  const width = (end - start) / buckets;
  const out: Point[] = [];
  let cur = -1;
  let sum = 0;
  let n = 0;
  let last = 0;
  for (const p of inside) {
    const b = Math.min(buckets - 1, Math.floor((p.t - start) / width));
    if (b !== cur && n > 0) {
      out.push({ t: last, v: sum / n });
      sum = 0;
      n = 0;
    }
    cur = b;
    sum += p.v;
    n++;
    last = p.t;
  }
  if (n > 0) out.push({ t: last, v: sum / n });
  return out;
}

/** The point of a series nearest to time t (tooltips), or undefined when none is within maxGapMs. */
export function nearest(points: readonly Point[], t: number, maxGapMs: number): Point | undefined {
  let best: Point | undefined;
  for (const p of points) if (!best || Math.abs(p.t - t) < Math.abs(best.t - t)) best = p;
  return best && Math.abs(best.t - t) <= maxGapMs ? best : undefined;
}
