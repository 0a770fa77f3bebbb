/** The multi-node view's reads of one agent: a tRPC client per agent, through the console's /agents/<name>/trpc proxy. */
import { createTRPCClient, httpBatchLink, type TRPCClient } from '@trpc/client';
import type { AppRouter } from '../../lib/app-router.ts';

export interface AgentListing {
  name: string;
  url: string;
}

export async function fetchAgents(): Promise<AgentListing[]> {
  const r = await fetch('/agents.json', { cache: 'no-store' });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return (await r.json()) as AgentListing[];
}

export const agentBase = (agent: string) => `/agents/${encodeURIComponent(agent)}`;

const clients = new Map<string, TRPCClient<AppRouter>>();

/** The agent's typed client (one per agent; the console answers an unreachable agent in tRPC's error shape). */
export function agentClient(agent: string): TRPCClient<AppRouter> {
  let c = clients.get(agent);
  if (!c) {
    c = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${agentBase(agent)}/trpc` })] });
    clients.set(agent, c);
  }
  return c;
}

export const fetchAgentNode = (agent: string) => agentClient(agent).node.get.query();
export const fetchAgentPods = (agent: string) => agentClient(agent).pods.list.query();
