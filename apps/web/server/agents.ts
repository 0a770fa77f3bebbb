/**
 * Several agents behind one console (pure; tested). NODELET_AGENTS = comma-separated `name=https://host:port`,
 * optionally `name=https://host:port|/pki/dir` (default: NODELET_PKI_DIR). The single NODELET_AGENT_URL agent is
 * always there as `default` (unless NODELET_AGENTS names one `default`), so the default pages stay unchanged.
 * Each agent is reachable at /agents/<name>/trpc and /agents/<name>/socket.io (and its cAdvisor /api/): see
 * agent-routes.ts. The PKI dir holds the ca.crt that verifies the agent's serving certificate.
 */
export interface AgentTarget {
  name: string;
  url: URL;
  pkiDir: string;
}

export type AgentsResult = { ok: true; agents: AgentTarget[] } | { ok: false; reason: string };

const NAME = /^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$/;

export function parseAgents(spec: string | undefined, fallback: AgentTarget): AgentsResult {
  const agents: AgentTarget[] = [];
  for (const raw of (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = raw.indexOf('=');
    if (eq <= 0) return { ok: false, reason: `NODELET_AGENTS: "${raw}" is not name=https://host:port[|pki-dir]` };
    const name = raw.slice(0, eq);
    if (!NAME.test(name)) return { ok: false, reason: `NODELET_AGENTS: invalid agent name "${name}" (lower-case DNS label)` };
    const [urlText = '', pkiDir] = raw.slice(eq + 1).split('|');
    let url: URL;
    try {
      url = new URL(urlText);
    } catch {
      return { ok: false, reason: `NODELET_AGENTS: agent "${name}" has an invalid URL "${urlText}"` };
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: `NODELET_AGENTS: agent "${name}" URL must be http(s), got ${url.protocol}` };
    if (agents.some((a) => a.name === name)) return { ok: false, reason: `NODELET_AGENTS: agent "${name}" given twice` };
    agents.push({ name, url, pkiDir: pkiDir || fallback.pkiDir });
  }
  if (!agents.some((a) => a.name === fallback.name)) agents.unshift(fallback);
  return { ok: true, agents };
}

/** What the browser may know about the agents (no PKI paths). */
export function agentsListing(agents: AgentTarget[]): Array<{ name: string; url: string }> {
  return agents.map((a) => ({ name: a.name, url: a.url.origin }));
}
