import type { EvictionRecord, NodeInfo, PressureSample, PressureState, SignalState } from '../../lib/api-types.ts';
import { formatAge, formatTimestamp } from '../../lib/format.ts';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import { linePath } from '../cadvisor/stats-math.ts';
import { conditionRows, formatSignalValue, signalBar } from './pressure-model.ts';

export function NodeConditions({ node, state }: { node: NodeInfo | undefined; state: PressureState | null | undefined }) {
  return (
    <table className="table" data-testid="node-conditions">
      <thead>
        <tr><th>Condition</th><th>Status</th><th>Message</th></tr>
      </thead>
      <tbody>
        {conditionRows(node, state).map((c) => (
          <tr key={c.type} data-testid={`pressure-${c.type}`} data-status={c.status}>
            <td>{c.type}</td>
            <td><Badge tone={c.tone}>{c.status}</Badge></td>
            <td className="muted">{c.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const BAR_W = 300;

function Sparkline({ history, signal }: { history: readonly PressureSample[]; signal: string }) {
  const pts = history.flatMap((h) => {
    const v = h.values[signal as keyof PressureSample['values']];
    return v && v.capacity > 0 ? [{ t: Date.parse(h.time), v: v.available / v.capacity }] : [];
  });
  if (pts.length < 2) return <svg className="sparkline" width={120} height={22} aria-hidden />;
  const d = linePath(pts, { width: 120, height: 20, start: pts[0]!.t, end: pts[pts.length - 1]!.t, yMax: 1 });
  return (
    <svg className="sparkline" viewBox="0 0 120 22" width={120} height={22} role="img" aria-label={`${signal} available over time`}>
      <path className="line series-0" d={d} transform="translate(0,1)" />
    </svg>
  );
}

function SignalRow({ s, history }: { s: SignalState; history: readonly PressureSample[] }) {
  const b = signalBar(s);
  const fillW = (b.availableFraction ?? 0) * BAR_W;
  return (
    <tr data-testid={`pressure-${s.signal}`} data-met={b.met} data-available={b.available ?? ''}>
      <td className="mono nowrap">{s.signal}</td>
      <td>
        <svg className="signal-bar" viewBox={`0 0 ${BAR_W} 16`} width={BAR_W} height={16} role="img" aria-label={`${s.signal} available`}>
          <rect className="strip-bg" x={0} y={2} width={BAR_W} height={12} rx={3} />
          {b.availableFraction !== undefined ? <rect className={`fill-${b.tone}`} x={0} y={2} width={fillW} height={12} rx={3} /> : null}
          {b.marks.map((m) => (
            <line key={`${m.kind}${m.raw}`} className={`mark mark-${m.kind}`} x1={m.at * BAR_W} x2={m.at * BAR_W} y1={0} y2={16}>
              <title>{`${m.kind} threshold ${m.raw}`}</title>
            </line>
          ))}
        </svg>
      </td>
      <td className="num">{formatSignalValue(s.signal, b.available)}<span className="muted"> / {formatSignalValue(s.signal, b.capacity)}</span></td>
      <td className="small">
        {b.marks.length === 0 ? <span className="muted">no threshold</span> : null}
        {b.marks.map((m) => (
          <div key={`${m.kind}${m.raw}`}>
            <Badge tone={m.met ? (m.kind === 'hard' ? 'bad' : 'warn') : 'done'}>{m.kind}</Badge> &lt; {m.raw} ({formatSignalValue(s.signal, m.quantity)})
            {m.kind === 'soft' ? <span className="muted"> grace {Math.round(m.gracePeriodMs / 1000)}s</span> : null}
            {m.met && m.graceRemainingMs !== undefined && m.graceRemainingMs > 0 ? <span className="pending"> acts in {Math.ceil(m.graceRemainingMs / 1000)}s</span> : null}
          </div>
        ))}
      </td>
      <td><Sparkline history={history} signal={s.signal} /></td>
    </tr>
  );
}

function Evictions({ evictions, now }: { evictions: EvictionRecord[]; now: number }) {
  if (evictions.length === 0) return <p className="muted small">No pods evicted.</p>;
  return (
    <table className="table" data-testid="evictions">
      <thead><tr><th>Pod</th><th>Signal</th><th>QoS</th><th>When</th><th>Message</th></tr></thead>
      <tbody>
        {[...evictions].reverse().map((e) => (
          <tr key={`${e.pod.uid}${e.time}`} data-testid="eviction-row">
            <td>{e.pod.namespace}/{e.pod.name}</td>
            <td className="mono">{e.signal}</td>
            <td>{e.qosClass}</td>
            <td title={formatTimestamp(e.time)}>{formatAge(e.time, now)} ago</td>
            <td className="summary">{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Node conditions and every eviction signal against its thresholds, with history and evictions. */
export function PressurePanel({ node, state, history, isPending, error, now }: {
  node: NodeInfo | undefined; state: PressureState | null | undefined; history: readonly PressureSample[]; isPending: boolean; error: { message: string } | null; now: number;
}) {
  return (
    <Panel title="Conditions & eviction signals" testId="pressure-panel" actions={state?.lastSync ? <span className="muted small">last pass {formatAge(state.lastSync, now)} ago</span> : null}>
      <NodeConditions node={node} state={state} />
      <QueryState isPending={isPending && state === undefined} error={state === undefined ? error : null} />
      {state === null ? <p className="muted">The agent runs no eviction manager.</p> : null}
      {state ? (
        <>
          <table className="table signals" data-testid="eviction-signals">
            <thead><tr><th>Signal</th><th>Available</th><th className="num">Available / capacity</th><th>Thresholds</th><th>History</th></tr></thead>
            <tbody>{state.signals.map((s) => <SignalRow key={s.signal} s={s} history={history} />)}</tbody>
          </table>
          {state.lastError ? <p className="error-text small">{state.lastError}</p> : null}
          <Evictions evictions={state.evictions} now={now} />
        </>
      ) : null}
    </Panel>
  );
}
