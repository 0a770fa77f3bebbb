import type { ReactNode } from 'react';
import type { WireContainerState, WireContainerStatus } from '../../lib/api-types.ts';
import { formatAge, formatTimestamp, shortContainerId } from '../../lib/format.ts';
import { Badge } from '../../lib/ui.tsx';
import { containerStateView, describeState } from '../pods/pod-summary.ts';

function StateLine({ state, now }: { state: WireContainerState | undefined; now: number }) {
  if (!state) return <span className="muted">—</span>;
  if (state.running) return <span>running since {formatTimestamp(state.running.startedAt)} ({formatAge(state.running.startedAt, now)})</span>;
  if (state.waiting) return <span>waiting: {state.waiting.reason ?? '—'}{state.waiting.message ? ` — ${state.waiting.message}` : ''}</span>;
  const t = state.terminated;
  if (!t) return <span className="muted">—</span>;
  return (
    <span>
      terminated: {t.reason ?? '—'} (exit code {t.exitCode}
      {t.signal ? `, signal ${t.signal}` : ''}) at {formatTimestamp(t.finishedAt)}
      {t.message ? ` — ${t.message}` : ''}
    </span>
  );
}

export function ContainerCard({ status, init, now, children }: { status: WireContainerStatus; init: boolean; now: number; children?: ReactNode }) {
  const v = containerStateView(status, init);
  const exitCode = status.state?.terminated?.exitCode;
  return (
    <div className="card" data-testid={`container-status-${status.name}`} data-state={v.state} data-reason={v.reason ?? ''} data-restarts={v.restartCount}>
      <div className="card-head">
        <strong>{status.name}</strong>
        {init ? <span className="muted"> (init)</span> : null}
        <Badge tone={v.tone} testId={`container-state-${status.name}`}>{describeState(v)}</Badge>
        <Badge tone={status.ready ? 'ok' : 'warn'}>{status.ready ? 'ready' : 'not ready'}</Badge>
      </div>
      <dl className="facts">
        <dt>State</dt>
        <dd><StateLine state={status.state} now={now} /></dd>
        <dt>Reason</dt>
        <dd data-testid={`container-reason-${status.name}`}>{v.reason ?? '—'}</dd>
        <dt>Exit code</dt>
        <dd>{exitCode ?? '—'}</dd>
        <dt>Restarts</dt>
        <dd data-testid={`container-restarts-${status.name}`}>{status.restartCount}</dd>
        <dt>Last state</dt>
        <dd><StateLine state={status.lastState && Object.keys(status.lastState).length ? status.lastState : undefined} now={now} /></dd>
        <dt>Image</dt>
        <dd className="mono">{status.image}</dd>
        <dt>Image ID</dt>
        <dd className="mono small">{status.imageID || '—'}</dd>
        <dt>Container ID</dt>
        <dd className="mono" title={status.containerID}>{shortContainerId(status.containerID)}</dd>
      </dl>
      {children}
    </div>
  );
}
