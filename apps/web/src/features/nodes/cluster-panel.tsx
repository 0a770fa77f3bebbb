'use client';
import type { NodeInfo } from '../../lib/api-types.ts';
import { formatAge, formatTimestamp } from '../../lib/format.ts';
import { Badge, Panel } from '../../lib/ui.tsx';

/** API-server mode: the node's cluster membership (nothing when the agent runs standalone). */
export function ClusterPanel({ node, now }: { node: NodeInfo | undefined; now: number }) {
  const c = node?.cluster;
  if (!c) return null;
  return (
    <Panel title="Cluster" testId="cluster-panel">
      <dl className="facts">
        <dt>API server</dt>
        <dd className="mono" data-testid="cluster-server">{c.server}</dd>
        <dt>Registered</dt>
        <dd data-testid="cluster-registered" data-registered={c.registered}>
          <Badge tone={c.registered ? 'ok' : 'warn'}>{c.registered ? 'registered' : 'not registered'}</Badge>
        </dd>
        <dt>Node UID</dt>
        <dd className="mono" data-testid="cluster-node-uid">{c.nodeUid ?? '-'}</dd>
        <dt>Lease renewed</dt>
        <dd data-testid="cluster-lease" title={c.leaseRenewTime ? formatTimestamp(c.leaseRenewTime) : undefined}>
          {c.leaseRenewTime ? `${formatAge(c.leaseRenewTime, now)} ago` : 'never'}
        </dd>
        <dt>Pods listed</dt>
        <dd>{c.podsListed ? 'yes' : 'not yet'}</dd>
        <dt>Last error</dt>
        <dd data-testid="cluster-last-error" data-error={c.lastError ? 'true' : 'false'}>
          {c.lastError ? <Badge tone="bad">{c.lastError}</Badge> : <span className="muted">none</span>}
        </dd>
      </dl>
    </Panel>
  );
}
