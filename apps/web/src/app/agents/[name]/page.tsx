'use client';
import { use } from 'react';
import { AgentView } from '../../../features/nodes/agent-view.tsx';

export default function AgentPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = use(params);
  return <AgentView agent={decodeURIComponent(name)} />;
}
