'use client';
import Link from 'next/link';
import { formatAge } from '../../lib/format.ts';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import { ContainerChips } from './container-chips.tsx';
import type { PodRowView } from './pod-summary.ts';

interface Props {
  rows: PodRowView[] | undefined;
  isPending: boolean;
  error: { message: string } | null;
  now: number;
}

export function PodsTable({ rows, isPending, error, now }: Props) {
  return (
    <Panel title={`Pods${rows ? ` (${rows.length})` : ''}`}>
      <QueryState isPending={isPending && !rows} error={rows ? null : error} />
      {rows ? (
        <table className="table" data-testid="pods-table">
          <thead>
            <tr>
              <th>Namespace</th>
              <th>Name</th>
              <th>Phase</th>
              <th>Ready</th>
              <th>Restarts</th>
              <th>Containers</th>
              <th>Age</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={7} className="muted">No pods on this node.</td>
              </tr>
            ) : null}
            {rows.map((r) => (
              <tr key={r.key} data-testid={`pod-row-${r.namespace}-${r.name}`} data-phase={r.phase} data-status={r.status}>
                <td className="muted">{r.namespace}</td>
                <td>
                  <Link prefetch={false} href={`/pods/${encodeURIComponent(r.namespace)}/${encodeURIComponent(r.name)}`}>{r.name}</Link>
                </td>
                <td>
                  <Badge tone={r.phaseTone} testId={`pod-phase-${r.namespace}-${r.name}`} title={r.status}>{r.phase}</Badge>
                  {r.status !== r.phase ? <span className="status-reason" data-testid={`pod-status-${r.namespace}-${r.name}`}>{r.status}</span> : null}
                </td>
                <td className="num">{r.readyCount}/{r.total}</td>
                <td className="num">{r.restarts}</td>
                <td>
                  <ContainerChips containers={r.containers} />
                </td>
                <td className="num">{formatAge(r.createdMs, now)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Panel>
  );
}
