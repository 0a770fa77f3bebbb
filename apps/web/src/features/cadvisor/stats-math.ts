/**
 * Pure math of the cAdvisor pages: merging sample buffers, rates from cumulative counters, sparkline paths, gauge
 * arcs (chart axes: features/charts/chart-scale.ts). Samples are the agent's ContainerSample (cumulative counters, epoch-ms times).
 */
import type { ContainerSample } from '../../lib/api-types.ts';
import type { Tone } from '../pods/pod-summary.ts';
import type { Point } from '../charts/chart-scale.ts';

export type { Point };

/** Merge by time (later copies of a time lose), oldest first, keep the newest `max`. */
export function mergeSamples(existing: readonly ContainerSample[], incoming: readonly ContainerSample[], max = 240): ContainerSample[] {
  if (incoming.length === 0) return existing as ContainerSample[];
  const byTime = new Map<number, ContainerSample>();
  for (const s of existing) byTime.set(s.time, s);
  let added = false;
  for (const s of incoming) {
    if (byTime.has(s.time)) continue;
    byTime.set(s.time, s);
    added = true;
  }
  if (!added) return existing as ContainerSample[];
  return [...byTime.values()].sort((a, b) => a.time - b.time).slice(-max);
}

/**
 * Per-second rate of a cumulative counter between consecutive samples, scaled by `per` (e.g. 1e9 to turn
 * ns/s into cores). A counter going backwards (container restarted) or a missing value skips that interval.
 */
export function counterRate(samples: readonly ContainerSample[], read: (s: ContainerSample) => number | undefined, per = 1): Point[] {
  const out: Point[] = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    const va = read(a);
    const vb = read(b);
    const dt = (b.time - a.time) / 1000;
    if (va === undefined || vb === undefined || dt <= 0 || vb < va) continue;
    out.push({ t: b.time, v: (vb - va) / dt / per });
  }
  return out;
}

export const NS_PER_CORE_SECOND = 1e9;

export interface CpuSeries {
  total: Point[];
  user: Point[];
  system: Point[];
  throttled: Point[];
}

export function cpuSeries(samples: readonly ContainerSample[]): CpuSeries {
  return {
    total: counterRate(samples, (s) => s.cpu?.usageNanoseconds, NS_PER_CORE_SECOND),
    user: counterRate(samples, (s) => s.cpu?.userNanoseconds, NS_PER_CORE_SECOND),
    system: counterRate(samples, (s) => s.cpu?.systemNanoseconds, NS_PER_CORE_SECOND),
    throttled: counterRate(samples, (s) => s.cpu?.throttledNanoseconds, NS_PER_CORE_SECOND),
  };
}

/** Cores per second of each core (one series per core, from perCpuNanoseconds), or why there is none. */
export function perCoreSeries(samples: readonly ContainerSample[]): { cores: Point[][]; unavailable?: string } {
  const n = samples.reduce((m, s) => Math.max(m, s.cpu?.perCpuNanoseconds?.length ?? 0), 0);
  const cores = Array.from({ length: n }, (_, i) => counterRate(samples, (s) => s.cpu?.perCpuNanoseconds?.[i], NS_PER_CORE_SECOND));
  const why = [...samples].reverse().find((s) => s.cpu?.perCpuUnavailable)?.cpu?.perCpuUnavailable;
  return n === 0 && why ? { cores, unavailable: why.message } : { cores };
}

export function memorySeries(samples: readonly ContainerSample[]): { usage: Point[]; workingSet: Point[] } {
  const usage: Point[] = [];
  const workingSet: Point[] = [];
  for (const s of samples) {
    if (!s.memory) continue;
    usage.push({ t: s.time, v: s.memory.usageBytes });
    workingSet.push({ t: s.time, v: s.memory.workingSetBytes });
  }
  return { usage, workingSet };
}

/** Bytes/s received and sent, summed over the interfaces except loopback. */
export function networkSeries(samples: readonly ContainerSample[]): { rx: Point[]; tx: Point[] } {
  const sum = (s: ContainerSample, f: 'rxBytes' | 'txBytes') => {
    if (!s.network) return undefined;
    return s.network.filter((i) => i.name !== 'lo').reduce((acc, i) => acc + i[f], 0);
  };
  return { rx: counterRate(samples, (s) => sum(s, 'rxBytes')), tx: counterRate(samples, (s) => sum(s, 'txBytes')) };
}

export interface ChartBox {
  width: number;
  height: number;
  /** Time window shown, ending at `end`. */
  start: number;
  end: number;
  yMax: number;
}

/** SVG path ("M x y L x y ...") of points in a box (y grows downwards); points outside the window are dropped. */
export function linePath(points: readonly Point[], box: ChartBox): string {
  const span = Math.max(1, box.end - box.start);
  const parts: string[] = [];
  for (const p of points) {
    if (p.t < box.start || p.t > box.end) continue;
    const x = ((p.t - box.start) / span) * box.width;
    const y = box.height - (Math.min(Math.max(p.v, 0), box.yMax) / box.yMax) * box.height;
    parts.push(`${parts.length ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)}`);
  }
  return parts.join(' ');
}

/** Fraction used, clamped to [0, 1]; undefined when the capacity is unknown (no limit). */
export function usageFraction(used: number | undefined, capacity: number | undefined): number | undefined {
  if (used === undefined || capacity === undefined || !Number.isFinite(capacity) || capacity <= 0) return undefined;
  return Math.min(1, Math.max(0, used / capacity));
}

export function gaugeTone(fraction: number | undefined): Tone {
  if (fraction === undefined) return 'info';
  if (fraction >= 0.9) return 'bad';
  if (fraction >= 0.7) return 'warn';
  return 'ok';
}

/**
 * The arc of a half-circle gauge (left → right over the top) filled to `fraction`, centred at (cx, cy) with
 * radius r: an SVG path, '' for 0.
 */
export function gaugeArc(fraction: number, cx: number, cy: number, r: number): string {
  const f = Math.min(1, Math.max(0, fraction));
  if (f === 0) return '';
  const angle = Math.PI * (1 - f);
  const x = cx + r * Math.cos(angle);
  const y = cy - r * Math.sin(angle);
  return `M${(cx - r).toFixed(2)} ${cy.toFixed(2)} A${r} ${r} 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)}`;
}

/** The gauge's centre text: whole percent, '<1%' for a little above zero, '—' when unknown. */
export function gaugeText(fraction: number | undefined): string {
  if (fraction === undefined) return '—';
  if (fraction > 0 && fraction < 0.01) return '<1%';
  return `${Math.round(fraction * 100)}%`;
}

export function latest(points: readonly Point[]): number | undefined {
  return points[points.length - 1]?.v;
}
