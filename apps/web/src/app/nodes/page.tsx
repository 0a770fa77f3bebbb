'use client';
import { NodesTable } from '../../features/nodes/nodes-table.tsx';
import { useAgentNodes } from '../../features/nodes/use-agent-nodes.ts';

export default function NodesPage() {
  const nodes = useAgentNodes();
  return <NodesTable rows={nodes.rows} isPending={nodes.isPending} error={nodes.error} />;
}
