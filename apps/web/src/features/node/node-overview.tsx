'use client';
import type { NodeInfo } from '../../lib/api-types.ts';
import { formatAge, formatTimestamp } from '../../lib/format.ts';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';

export function NodeOverview({ node, isPending, error, now }: { node: NodeInfo | undefined; isPending: boolean; error: { message: string } | null; now: number }) {
  return (
    <Panel title="Node" testId="node-overview">
      <QueryState isPending={isPending && !node} error={node ? null : error} />
      {node ? (
        <div className="node-grid">
          <dl className="facts">
            <dt>Name</dt>
            <dd data-testid="node-overview-name">{node.name}</dd>
            <dt>Runtime</dt>
            <dd>
              {node.runtime ? `${node.runtime.name} ${node.runtime.version}` : 'unknown'}{' '}
              <Badge tone={node.runtimeReady ? 'ok' : 'bad'} testId="runtime-ready">{node.runtimeReady ? 'ready' : 'not ready'}</Badge>
              {node.runtimeMessage ? <span className="muted"> {node.runtimeMessage}</span> : null}
            </dd>
            <dt>Endpoint</dt>
            <dd className="mono">{node.runtime?.endpoint ?? '-'}</dd>
            <dt>Kubelet</dt>
            <dd>{node.kubeletVersion}</dd>
            <dt>Started</dt>
            <dd title={formatTimestamp(node.startTime)}>{formatAge(node.startTime, now)} ago</dd>
          </dl>
          <div className="stat" data-testid="pod-count">
            <div className="stat-value">{node.podCount}</div>
            <div className="stat-label">pods (max {node.maxPods})</div>
          </div>
          <div className="health">
            <div className="health-head">
              Health <Badge tone={node.health.ok ? 'ok' : 'bad'} testId="health-ok">{node.health.ok ? 'ok' : 'failing'}</Badge>
            </div>
            <ul className="checks">
              {node.health.checks.map((c) => (
                <li key={c.name} data-testid={`health-check-${c.name}`} data-ok={c.ok}>
                  <Badge tone={c.ok ? 'ok' : 'bad'}>{c.ok ? '✓' : '✗'}</Badge> {c.name}
                  {c.message ? <span className="muted"> — {c.message}</span> : null}
                </li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
    </Panel>
  );
}
