/** Plain tRPC-over-HTTP reads against one agent through the console's /agents/<name>/trpc proxy (multi-node view). */
import type { NodeInfo, WirePod } from '../../lib/api-types.ts';

export interface AgentListing {
  name: string;
  url: string;
}

async function getJson<T>(url: string): Promise<T> {
  const r = await fetch(url, { cache: 'no-store' });
  const body = (await r.json().catch(() => ({}))) as { result?: { data: T }; error?: unknown };
  if (!r.ok || !body.result) {
    const e = body.error as { message?: string; json?: { message?: string } } | string | undefined;
    const msg = typeof e === 'string' ? e : (e?.message ?? e?.json?.message ?? `HTTP ${r.status}`);
    throw new Error(msg);
  }
  return body.result.data;
}

export async function fetchAgents(): Promise<AgentListing[]> {
  const r = await fetch('/agents.json', { cache: 'no-store' });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return (await r.json()) as AgentListing[];
}

export const agentBase = (agent: string) => `/agents/${encodeURIComponent(agent)}`;
export const fetchAgentNode = (agent: string) => getJson<NodeInfo>(`${agentBase(agent)}/trpc/node.get`);
export const fetchAgentPods = (agent: string) => getJson<WirePod[]>(`${agentBase(agent)}/trpc/pods.list`);
