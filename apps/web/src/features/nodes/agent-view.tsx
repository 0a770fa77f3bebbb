'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { formatAge } from '../../lib/format.ts';
import { useNow } from '../../lib/use-now.ts';
import { Panel, QueryState } from '../../lib/ui.tsx';
import { NodeOverview } from '../node/node-overview.tsx';
import { fetchAgentNode, fetchAgentPods } from './agent-fetch.ts';
import { ClusterPanel } from './cluster-panel.tsx';

/** One agent of a multi-agent console: its node, cluster membership and pods (refreshed every 2 s). */
export function AgentView({ agent }: { agent: string }) {
  const now = useNow();
  const node = useQuery({ queryKey: ['agent', agent, 'node'], queryFn: () => fetchAgentNode(agent), refetchInterval: 2000, retry: false });
  const pods = useQuery({ queryKey: ['agent', agent, 'pods'], queryFn: () => fetchAgentPods(agent), refetchInterval: 2000, retry: false });
  return (
    <div data-testid="agent-view" data-agent={agent}>
      <p>
        <Link href="/nodes">← all nodes</Link> · agent <span className="mono">{agent}</span>
      </p>
      <NodeOverview node={node.data} isPending={node.isPending} error={node.error} now={now} />
      <ClusterPanel node={node.data} now={now} />
      <Panel title="Pods" testId="agent-pods">
        <QueryState isPending={pods.isPending} error={pods.error} />
        <table className="table">
          <thead>
            <tr>
              <th>Namespace</th>
              <th>Name</th>
              <th>Phase</th>
              <th>Age</th>
            </tr>
          </thead>
          <tbody>
            {(pods.data ?? []).map((p) => (
              <tr key={p.metadata?.uid ?? `${p.metadata?.namespace}/${p.metadata?.name}`} data-testid={`agent-pod-${p.metadata?.name}`} data-phase={p.status?.phase}>
                <td>{p.metadata?.namespace}</td>
                <td>{p.metadata?.name}</td>
                <td>{p.status?.phase ?? '-'}</td>
                <td>{p.status?.startTime ? formatAge(p.status.startTime, now) : '-'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
    </div>
  );
}
