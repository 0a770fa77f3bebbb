import { formatClock } from '../../lib/format.ts';
import { linePath, niceScale, type Point } from './stats-math.ts';

export interface ChartSeries {
  name: string;
  /** Colour index: CSS class series-0 … series-3, then the inline palette below (per-core charts). */
  color: number;
  points: readonly Point[];
}

/** The last point of an SVG path made by linePath ("M x y L x y ..."). */
function lastXY(d: string): [number, number] | undefined {
  const m = /([\d.]+) ([\d.]+)$/.exec(d);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Colours past the stylesheet's four series classes (cycled). */
const EXTRA = ['#0891b2', '#dc2626', '#65a30d', '#db2777', '#4f46e5', '#ca8a04', '#0d9488', '#7c3aed'];
const colorClass = (c: number) => `series-${c < 4 ? c : 'x'}`;
const colorStyle = (c: number, prop: 'stroke' | 'background' | 'fill') => (c < 4 ? undefined : { [prop]: EXTRA[(c - 4) % EXTRA.length] });

const W = 560;
const H = 170;
const PAD = { left: 82, right: 12, top: 10, bottom: 22 };

/** A time-series line chart drawn in SVG: nice y axis, grid lines, time labels, legend with latest values. */
export function LineChart({ title, series, format, testId, windowMs = 240_000, now, empty }: {
  title: string;
  series: ChartSeries[];
  format: (v: number) => string;
  testId: string;
  windowMs?: number;
  now: number;
  empty?: string;
}) {
  const all = series.flatMap((s) => s.points);
  const newest = all.reduce((m, p) => Math.max(m, p.t), 0);
  const end = Math.max(now, newest);
  const start = end - windowMs;
  const visible = all.filter((p) => p.t >= start);
  const scale = niceScale(visible.reduce((m, p) => Math.max(m, p.v), 0));
  const iw = W - PAD.left - PAD.right;
  const ih = H - PAD.top - PAD.bottom;
  const box = { width: iw, height: ih, start, end, yMax: scale.max };
  const timeTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => start + f * windowMs);
  return (
    <figure className="chart" data-testid={testId} data-points={visible.length}>
      <figcaption className="chart-head">
        <strong>{title}</strong>
        <span className="legend">
          {series.map((s) => (
            <span key={s.name} className="legend-item" data-testid={`${testId}-legend-${s.name}`}>
              <span className={`swatch ${colorClass(s.color)}`} style={colorStyle(s.color, 'background')} aria-hidden /> {s.name}{' '}
              <span className="muted">{s.points.length ? format(s.points[s.points.length - 1]!.v) : '—'}</span>
            </span>
          ))}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} className="chart-svg" role="img" aria-label={title} preserveAspectRatio="xMidYMid meet">
        <g transform={`translate(${PAD.left},${PAD.top})`}>
          {scale.ticks.map((v) => {
            const y = ih - (v / scale.max) * ih;
            return (
              <g key={v}>
                <line className="grid" x1={0} x2={iw} y1={y} y2={y} />
                <text className="axis" x={-6} y={y + 3.5} textAnchor="end">{format(v)}</text>
              </g>
            );
          })}
          {timeTicks.map((t, i) => (
            <text key={i} className="axis" x={(i / 4) * iw} y={ih + 15} textAnchor={i === 0 ? 'start' : i === 4 ? 'end' : 'middle'}>
              {formatClock(t).slice(0, 8)}
            </text>
          ))}
          {series.map((s) => {
            const d = linePath(s.points, box);
            const end = lastXY(d);
            return d ? (
              <g key={s.name}>
                <path className={`line ${colorClass(s.color)}`} style={colorStyle(s.color, 'stroke')} d={d} data-series={s.name} />
                {end ? <circle className={`dot ${colorClass(s.color)}`} style={colorStyle(s.color, 'fill')} cx={end[0]} cy={end[1]} r={2.5} /> : null}
              </g>
            ) : null;
          })}
          {visible.length === 0 ? (
            <text className="axis" x={iw / 2} y={ih / 2} textAnchor="middle">{empty ?? 'waiting for samples…'}</text>
          ) : null}
        </g>
      </svg>
    </figure>
  );
}
