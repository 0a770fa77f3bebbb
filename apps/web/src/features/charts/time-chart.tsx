'use client';
/**
 * The console's one time-series chart: SVG drawn at its real pixel width (axis text stays at its CSS size), the
 * page's shared time window, round value and time ticks in the series' unit, a legend with the latest values and a
 * tooltip with every series' value at the pointer.
 */
import { useState, type MouseEvent } from 'react';
import { downsample, formatValue, nearest, timeTicks, valueAxis, windowMs, type ChartUnit, type Point } from './chart-scale.ts';
import { useChartWindow } from './chart-window.tsx';
import { useWidth } from './use-width.ts';

export interface ChartSeries {
  name: string;
  /** Colour index: CSS class series-0 … series-3, then the inline palette below (per-core charts). */
  color: number;
  points: readonly Point[];
}

const EXTRA = ['#0891b2', '#dc2626', '#65a30d', '#db2777', '#4f46e5', '#ca8a04', '#0d9488', '#7c3aed'];
const colorClass = (c: number) => `series-${c < 4 ? c : 'x'}`;
const colorStyle = (c: number, prop: 'stroke' | 'background' | 'fill') => (c < 4 ? undefined : { [prop]: EXTRA[(c - 4) % EXTRA.length] });

const H = 180;
const PAD = { right: 10, top: 8, bottom: 22 };
/** Average width of one axis character (11 px monospace). */
const CHAR_PX = 6.8;

function pathOf(points: readonly Point[], x: (t: number) => number, y: (v: number) => number): string {
  return points.map((p, i) => `${i ? 'L' : 'M'}${x(p.t).toFixed(1)} ${y(p.v).toFixed(1)}`).join(' ');
}

export function TimeChart({ title, series, unit, testId, now, empty }: {
  title: string;
  series: ChartSeries[];
  unit: ChartUnit;
  testId: string;
  now: number;
  empty?: string;
}) {
  const windowId = useChartWindow();
  const span = windowMs(windowId);
  const { ref, width } = useWidth<HTMLDivElement>(560);
  const [hoverT, setHoverT] = useState<number>();
  const newest = series.reduce((m, s) => Math.max(m, s.points[s.points.length - 1]?.t ?? 0), 0);
  const end = Math.max(now, newest);
  const start = end - span;
  const drawn = series.map((s) => ({ ...s, points: downsample(s.points, start, end, Math.max(60, Math.floor(width / 2))) }));
  const visible = drawn.reduce((n, s) => n + s.points.length, 0);
  const axis = valueAxis(drawn.reduce((m, s) => s.points.reduce((mm, p) => Math.max(mm, p.v), m), 0), unit);
  const left = Math.ceil(Math.max(...axis.ticks.map((t) => t.label.length)) * CHAR_PX) + 10;
  const iw = Math.max(40, width - left - PAD.right);
  const ih = H - PAD.top - PAD.bottom;
  const x = (t: number) => ((t - start) / span) * iw;
  const y = (v: number) => ih - (Math.min(Math.max(v, 0), axis.max) / axis.max) * ih;
  const ticks = timeTicks(start, end, Math.max(2, Math.floor(iw / 90)));
  const onMove = (e: MouseEvent<SVGRectElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    setHoverT(start + ((e.clientX - r.left) / Math.max(1, r.width)) * span);
  };
  const gap = Math.max(5_000, span / 60);
  const hover = hoverT === undefined ? [] : drawn.map((s) => ({ s, p: nearest(s.points, hoverT, gap) })).filter((h) => h.p);
  const hoverX = hover[0]?.p ? x(hover[0].p.t) : undefined;
  return (
    <figure className="chart" data-testid={testId} data-points={visible} data-window={windowId} data-unit={axis.unit}>
      <figcaption className="chart-head">
        <strong>{title}</strong>
        <span className="legend">
          {series.map((s) => (
            <span key={s.name} className="legend-item" data-testid={`${testId}-legend-${s.name}`}>
              <span className={`swatch ${colorClass(s.color)}`} style={colorStyle(s.color, 'background')} aria-hidden /> {s.name}{' '}
              <span className="muted">{formatValue(s.points[s.points.length - 1]?.v, unit)}</span>
            </span>
          ))}
        </span>
      </figcaption>
      <div className="chart-body" ref={ref}>
        <svg width={width} height={H} viewBox={`0 0 ${width} ${H}`} className="chart-svg" role="img" aria-label={title}>
          <g transform={`translate(${left},${PAD.top})`}>
            {axis.ticks.map((tk) => (
              <g key={tk.value}>
                <line className="grid" x1={0} x2={iw} y1={y(tk.value)} y2={y(tk.value)} />
                <text className="axis" x={-6} y={y(tk.value) + 4} textAnchor="end">{tk.label}</text>
              </g>
            ))}
            {ticks.map((tk) => (
              <text key={tk.t} className="axis" x={x(tk.t)} y={ih + 16} textAnchor="middle" data-testid={`${testId}-time-tick`}>{tk.label}</text>
            ))}
            {drawn.map((s) => {
              const lastP = s.points[s.points.length - 1];
              return s.points.length ? (
                <g key={s.name}>
                  <path className={`line ${colorClass(s.color)}`} style={colorStyle(s.color, 'stroke')} d={pathOf(s.points, x, y)} data-series={s.name} />
                  {lastP ? <circle className={`dot ${colorClass(s.color)}`} style={colorStyle(s.color, 'fill')} cx={x(lastP.t)} cy={y(lastP.v)} r={2.5} /> : null}
                </g>
              ) : null;
            })}
            {visible === 0 ? <text className="axis" x={iw / 2} y={ih / 2} textAnchor="middle">{empty ?? 'waiting for samples…'}</text> : null}
            {hoverX !== undefined ? <line className="hover-line" x1={hoverX} x2={hoverX} y1={0} y2={ih} /> : null}
            <rect className="hit" x={0} y={0} width={iw} height={ih} onMouseMove={onMove} onMouseLeave={() => setHoverT(undefined)} />
          </g>
        </svg>
        {hover.length && hoverX !== undefined ? (
          <div className="chart-tip" role="tooltip" data-testid={`${testId}-tooltip`} style={{ left: Math.min(left + hoverX + 8, width - 170) }}>
            <div className="mono small">{new Date(hover[0]!.p!.t).toISOString().slice(11, 19)}</div>
            {hover.map(({ s, p }) => (
              <div key={s.name} className="small">
                <span className={`swatch ${colorClass(s.color)}`} style={colorStyle(s.color, 'background')} aria-hidden /> {s.name} <strong>{formatValue(p!.v, unit)}</strong>
              </div>
            ))}
          </div>
        ) : null}
      </div>
    </figure>
  );
}
