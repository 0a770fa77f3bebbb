/** One row of the /nodes table from an agent's node.get (pure; tested). */
import type { NodeInfo } from '../../lib/api-types.ts';

export interface NodeRow {
  agent: string;
  name: string;
  reachable: boolean;
  ready: boolean;
  runtime: string;
  pods: number | undefined;
  pressure: string[];
  cluster: string;
  clusterError: string | undefined;
  error: string | undefined;
}

export function nodeRow(agent: string, node: NodeInfo | undefined, error: string | undefined): NodeRow {
  if (!node) {
    return { agent, name: agent, reachable: false, ready: false, runtime: '-', pods: undefined, pressure: [], cluster: '-', clusterError: undefined, error: error ?? 'loading' };
  }
  const c = node.cluster;
  return {
    agent,
    name: node.name,
    reachable: true,
    ready: node.health.ok && node.runtimeReady,
    runtime: node.runtime ? `${node.runtime.name} ${node.runtime.version}` : 'unknown',
    pods: node.podCount,
    pressure: node.pressure ?? [],
    cluster: c ? `${c.registered ? 'registered' : 'not registered'} at ${c.server}${c.nodeUid ? ` (uid ${c.nodeUid})` : ''}` : 'standalone',
    clusterError: c?.lastError,
    error,
  };
}
