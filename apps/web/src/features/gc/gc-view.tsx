'use client';
import type { GcPolicies } from '../../lib/api-types.ts';
import { formatAge, formatBytes, formatTimestamp } from '../../lib/format.ts';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import { useNow } from '../../lib/use-now.ts';
import type { GcKind, GcRow } from './gc-model.ts';
import { useGc } from './use-gc.ts';

const dur = (ms: number) => (ms <= 0 ? 'off' : ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);

function Policies({ p }: { p: GcPolicies | null | undefined }) {
  if (!p) return <p className="muted">The agent reports no GC policy.</p>;
  return (
    <dl className="facts two-col" data-testid="gc-policies">
      <dt>Image GC</dt>
      <dd>high {p.image.highThresholdPercent}% · low {p.image.lowThresholdPercent}% · min age {dur(p.image.minAgeMs)} · max age {dur(p.image.maxAgeMs)} · every {dur(p.image.periodMs)}</dd>
      <dt>Container GC</dt>
      <dd>min age {dur(p.container.minAgeMs)} · max per pod container {p.container.maxPerPodContainer} · max containers {p.container.maxContainers < 0 ? 'unlimited' : p.container.maxContainers} · every {dur(p.container.periodMs)}</dd>
    </dl>
  );
}

function Removed({ row }: { row: GcRow }) {
  if (row.removed.length === 0) return <span className="muted">nothing to remove</span>;
  return (
    <ul className="removed">
      {row.removed.map((r) => <li key={r} className="mono small">{r}</li>)}
    </ul>
  );
}

function ResultCard({ kind, row, error }: { kind: GcKind; row: GcRow | undefined; error: { message: string } | null }) {
  if (error) return <p className="error-text" data-testid="gc-result" data-kind={kind} data-ok="false">{kind === 'images' ? 'Image' : 'Container'} GC failed: {error.message}</p>;
  if (!row) return null;
  return (
    <div className="card" data-testid="gc-result" data-kind={kind} data-ok="true" data-removed={row.removed.length} data-freed-bytes={row.freedBytes}>
      <div className="card-head">
        <strong>{kind === 'images' ? 'Image GC' : 'Container GC'}</strong>
        <Badge tone={row.errors.length ? 'warn' : 'ok'}>removed {row.removed.length}</Badge>
        <Badge tone="info">freed {formatBytes(row.freedBytes)}</Badge>
        <span className="muted small">{formatTimestamp(row.time)}</span>
      </div>
      <Removed row={row} />
      {row.errors.map((e) => <p key={e} className="error-text small">{e}</p>)}
    </div>
  );
}

export function GcView() {
  const gc = useGc();
  const now = useNow();
  const im = gc.images.mutation;
  const cm = gc.containers.mutation;
  const lastKind: GcKind | undefined = im.submittedAt >= cm.submittedAt ? (im.submittedAt ? 'images' : undefined) : 'containers';
  const m = lastKind === 'images' ? im : lastKind === 'containers' ? cm : undefined;
  const row = m?.data ? { id: 'r', kind: lastKind!, trigger: 'manual', ...m.data } : undefined;
  return (
    <div className="stack" data-testid="gc-page">
      <Panel title="Garbage collection">
        <div className="gc-actions">
          <button type="button" className="btn btn-primary" data-testid="gc-images-button" disabled={gc.images.isRunning} onClick={gc.images.run}>
            {gc.images.isRunning ? 'Collecting images…' : 'Run image GC'}
          </button>
          <button type="button" className="btn btn-primary" data-testid="gc-containers-button" disabled={gc.containers.isRunning} onClick={gc.containers.run}>
            {gc.containers.isRunning ? 'Collecting containers…' : 'Run container GC'}
          </button>
          <span className="muted small">Image GC removes every unused image older than the minimum age; container GC removes the dead containers and sandboxes the policy allows.</span>
        </div>
        {lastKind ? <ResultCard kind={lastKind} row={row} error={m?.error ?? null} /> : null}
        <QueryState isPending={false} error={gc.error} />
        <Policies p={gc.policies} />
      </Panel>
      <Panel title={`History (${gc.history.length})`}>
        {gc.history.length === 0 ? <p className="muted">No GC run recorded yet.</p> : null}
        {gc.history.length > 0 ? (
          <table className="table" data-testid="gc-history">
            <thead><tr><th>When</th><th>GC</th><th>Trigger</th><th className="num">Freed</th><th>Removed</th></tr></thead>
            <tbody>
              {gc.history.map((r) => (
                <tr key={r.id} data-testid="gc-history-row" data-kind={r.kind}>
                  <td className="nowrap" title={formatTimestamp(r.time)}>{formatAge(r.time, now)} ago</td>
                  <td>{r.kind}</td>
                  <td>{r.trigger}</td>
                  <td className="num">{formatBytes(r.freedBytes)}</td>
                  <td><Removed row={r} />{r.errors.map((e) => <div key={e} className="error-text small">{e}</div>)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </Panel>
    </div>
  );
}
