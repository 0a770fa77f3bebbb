import { gaugeArc, gaugeText, gaugeTone } from './stats-math.ts';

/** A half-circle SVG gauge: `fraction` of the arc filled, the value as text under it. */
export function Gauge({ label, fraction, value, detail, testId }: { label: string; fraction: number | undefined; value: string; detail: string; testId: string }) {
  const tone = gaugeTone(fraction);
  const arc = fraction === undefined ? '' : gaugeArc(fraction, 60, 58, 46);
  return (
    <figure className="gauge" data-testid={testId} data-fraction={fraction === undefined ? '' : fraction.toFixed(4)} data-tone={tone}>
      <svg viewBox="0 0 120 70" width={160} height={94} role="img" aria-label={`${label} ${value}`}>
        <path className="gauge-track" d={gaugeArc(1, 60, 58, 46)} />
        {arc ? <path className={`gauge-fill stroke-${tone}`} d={arc} /> : null}
        <text x={60} y={54} textAnchor="middle" className="gauge-value">
          {gaugeText(fraction)}
        </text>
      </svg>
      <figcaption>
        <strong>{label}</strong>
        <div className="small">{value}</div>
        <div className="small muted">{detail}</div>
      </figcaption>
    </figure>
  );
}
