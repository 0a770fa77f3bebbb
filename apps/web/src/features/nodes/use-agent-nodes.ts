'use client';
import { useQueries, useQuery } from '@tanstack/react-query';
import { fetchAgentNode, fetchAgents } from './agent-fetch.ts';
import { nodeRow, type NodeRow } from './node-row.ts';

/** Every agent's node.get, refreshed every 2 s (the /nodes page). */
export function useAgentNodes(): { rows: NodeRow[]; isPending: boolean; error: Error | null } {
  const agents = useQuery({ queryKey: ['agents'], queryFn: fetchAgents, staleTime: 60_000 });
  const list = agents.data ?? [];
  const nodes = useQueries({
    queries: list.map((a) => ({ queryKey: ['agent', a.name, 'node'], queryFn: () => fetchAgentNode(a.name), refetchInterval: 2000, retry: false })),
  });
  const rows = list.map((a, i) => {
    const q = nodes[i];
    return nodeRow(a.name, q?.data, q?.error ? q.error.message : undefined);
  });
  return { rows, isPending: agents.isPending, error: agents.error };
}
