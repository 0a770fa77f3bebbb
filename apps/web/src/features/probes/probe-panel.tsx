import { formatAge, formatClock, formatTimestamp } from '../../lib/format.ts';
import { Badge } from '../../lib/ui.tsx';
import { recentFailures, timelineKey, type ProbeTimelines, type ProbeView } from './probe-model.ts';
import { ProbeStrip } from './probe-strip.tsx';

function ProbeRow({ probe, timelines, now }: { probe: ProbeView; timelines: ProbeTimelines; now: number }) {
  const ticks = timelines[timelineKey(probe.container, probe.type)] ?? [];
  const failures = recentFailures(ticks, 3);
  const id = `${probe.container}-${probe.type}`;
  return (
    <div className="probe" data-testid={`probe-${id}`} data-result={probe.result} data-on-hold={probe.onHold}>
      <div className="probe-head">
        <span className="probe-type">{probe.type}</span>
        <Badge tone={probe.tone} testId={`probe-result-${id}`}>{probe.label}</Badge>
        {probe.streak ? <span className="small muted nowrap">{probe.streak}</span> : null}
        <span className="mono small muted probe-target" title={probe.target}>{probe.handler} {probe.target}</span>
      </div>
      <ProbeStrip ticks={ticks} type={probe.type} testId={`probe-timeline-${id}`} />
      <div className="small muted">{probe.thresholds}</div>
      <div className="small">
        {probe.lastRunTime ? (
          <>
            last run <span title={formatTimestamp(probe.lastRunTime)}>{formatAge(probe.lastRunTime, now)} ago</span>
            {probe.lastLatencyMs !== undefined ? <> · {probe.lastLatencyMs} ms</> : null}
            {probe.lastOutput ? <> · <span className="mono" data-testid={`probe-output-${id}`}>{probe.lastOutput}</span></> : null}
          </>
        ) : (
          <span className="muted">not run yet</span>
        )}
      </div>
      {failures.length > 0 ? (
        <ul className="probe-failures" data-testid={`probe-failures-${id}`}>
          {failures.map((f) => (
            <li key={f.time}>
              <span className="mono muted">{formatClock(f.time)}</span> <span className="error-text">{f.output}</span>
              {f.count > 1 ? <span className="muted"> (x{f.count})</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A container's probes (startup, liveness, readiness), each with its state, thresholds and timeline. */
export function ProbePanel({ probes, timelines, now }: { probes: ProbeView[]; timelines: ProbeTimelines; now: number }) {
  if (probes.length === 0) return null;
  return (
    <div className="probes">
      <div className="probes-title">Probes</div>
      {probes.map((p) => <ProbeRow key={p.type} probe={p} timelines={timelines} now={now} />)}
    </div>
  );
}
