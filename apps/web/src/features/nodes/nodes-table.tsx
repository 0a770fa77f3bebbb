'use client';
import Link from 'next/link';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import { agentBase } from './agent-fetch.ts';
import type { NodeRow } from './node-row.ts';

export function NodesTable({ rows, isPending, error }: { rows: NodeRow[]; isPending: boolean; error: { message: string } | null }) {
  return (
    <Panel title={`Nodes (${rows.length} agents)`}>
      <QueryState isPending={isPending} error={error} />
      <table className="table" data-testid="nodes-table">
        <thead>
          <tr>
            <th>Node</th>
            <th>Agent</th>
            <th>Ready</th>
            <th>Runtime</th>
            <th>Pods</th>
            <th>Pressure</th>
            <th>Cluster</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.agent} data-testid={`node-row-${r.name}`} data-agent={r.agent} data-ready={r.ready} data-reachable={r.reachable}>
              <td>
                <Link href={`${agentBase(r.agent)}`}>{r.name}</Link>
              </td>
              <td className="mono">{r.agent}</td>
              <td>
                <Badge tone={r.ready ? 'ok' : 'bad'}>{r.reachable ? (r.ready ? 'Ready' : 'NotReady') : 'unreachable'}</Badge>
                {r.error && !r.reachable ? <span className="muted"> {r.error}</span> : null}
              </td>
              <td>{r.runtime}</td>
              <td data-testid={`node-pods-${r.name}`}>{r.pods ?? '-'}</td>
              <td>{r.pressure.length ? r.pressure.map((p) => <Badge key={p} tone="bad">{p}</Badge>) : <span className="muted">none</span>}</td>
              <td data-testid={`node-cluster-${r.name}`}>
                {r.cluster}
                {r.clusterError ? <Badge tone="bad" title={r.clusterError}>error</Badge> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}
