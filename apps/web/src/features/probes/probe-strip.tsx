import type { ProbeType } from '../../lib/api-types.ts';
import { formatClock } from '../../lib/format.ts';
import { stripLayout, type ProbeTick } from './probe-model.ts';

const WIDTH = 360;
const HEIGHT = 18;
const SLOTS = 40;

/** An SVG strip of the newest probe results, one coloured tick per run, newest on the right. */
export function ProbeStrip({ ticks, type, testId }: { ticks: readonly ProbeTick[]; type: ProbeType; testId: string }) {
  const layout = stripLayout(ticks, type, WIDTH, SLOTS);
  return (
    <svg
      className="probe-strip"
      data-testid={testId}
      data-count={ticks.length}
      data-last={ticks[ticks.length - 1]?.result ?? ''}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={`${type} probe: last ${layout.length} results`}
    >
      <rect className="strip-bg" x={0} y={0} width={WIDTH} height={HEIGHT} rx={3} />
      {layout.map((t) => (
        <rect key={t.tick.seq} className={`tick fill-${t.tone}`} x={t.x} y={2} width={t.width} height={HEIGHT - 4} rx={1.5} data-result={t.tick.result}>
          <title>{`${formatClock(t.tick.time)} ${t.tick.result} · ${t.tick.latencyMs} ms${t.tick.output ? ` — ${t.tick.output}` : ''}`}</title>
        </rect>
      ))}
    </svg>
  );
}
