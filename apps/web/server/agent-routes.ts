/**
 * The strict allow-list of agent paths the console forwards (pure; tested). Input is a path that passed
 * parseTarget (decoded once, no `.`/`..`/`//`). Only what apps/web needs: the tRPC procedures of the agent's
 * AppRouter (queries and subscriptions by GET, mutations by POST), socket.io, the cAdvisor REST API (GET) and one
 * container's log (GET /containerLogs/{namespace}/{pod}/{container}, read-only, the logs viewer); the same under
 * /agents/<name>/. Everything else (the agent's /exec, /attach, /portForward, /run, /pods, /metrics, /stats, /logs,
 * /configz, ...) is never reachable through the console.
 */
export type ProcedureType = 'query' | 'mutation' | 'subscription';

/** The agent's AppRouter procedures (server/agent-routes.test.ts checks this list against the router). */
export const PROCEDURES: Readonly<Record<string, ProcedureType>> = {
  'pods.list': 'query',
  'pods.get': 'query',
  'pods.why': 'query',
  'node.get': 'query',
  'events.recent': 'query',
  'lifecycle.onEvent': 'subscription',
  'probes.list': 'query',
  'probes.recent': 'query',
  'probes.onEvent': 'subscription',
  'stats.machine': 'query',
  'stats.cgroups': 'query',
  'stats.ooms': 'query',
  'stats.containers': 'query',
  'stats.tree': 'query',
  'stats.history': 'query',
  'stats.pod': 'query',
  'stats.summary': 'query',
  'stats.processes': 'query',
  'stats.onSample': 'subscription',
  'eviction.state': 'query',
  'eviction.history': 'query',
  'eviction.onState': 'subscription',
  'gc.images': 'mutation',
  'gc.containers': 'mutation',
  'gc.last': 'query',
  'gc.policies': 'query',
  'images.list': 'query',
  'images.gcRunning': 'query',
  'resources.get': 'query',
  'recorder.query': 'query',
  'recorder.stats': 'query',
  'recorder.onEntry': 'subscription',
  'certificates.status': 'query',
  'shutdown.progress': 'query',
  'shutdown.onProgress': 'subscription',
};

export type AgentRequestKind = 'trpc-read' | 'trpc-mutation' | 'socket.io' | 'cadvisor' | 'logs';

export type AgentRoute =
  | { ok: true; agent: string; path: string; kind: AgentRequestKind }
  | { ok: false; status: 404 | 405; reason: string };

const AGENT_NAME = /^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$/;
const CADVISOR = /^\/api\/(v1\.3\/(machine|containers)|v2\.0\/(machine|spec|stats|ps))(\/[^/]+)*\/?$/;
const CONTAINER_LOGS = /^\/containerLogs\/[^/]+\/[^/]+\/[^/]+$/;
const MAX_BATCH = 32;

/** Whether a path is one of the console's proxied API prefixes at all (401 JSON rather than the sign-in page). */
export function isApiPath(path: string): boolean {
  const rest = /^\/agents\/[^/]+(\/.*)$/.exec(path)?.[1] ?? path;
  return /^\/(trpc|socket\.io|api|containerLogs)(\/|$)/.test(rest) || path === '/agents.json';
}

function notFound(path: string): AgentRoute {
  return { ok: false, status: 404, reason: `not found: ${path.slice(0, 200)}` };
}

function trpcKind(names: string, method: string): AgentRoute | AgentRequestKind {
  const list = names.split(',');
  if (list.length > MAX_BATCH || list.some((n) => !Object.hasOwn(PROCEDURES, n))) return { ok: false, status: 404, reason: 'unknown tRPC procedure' };
  const types = list.map((n) => PROCEDURES[n]);
  if (types.every((t) => t === 'mutation')) {
    return method === 'POST' ? 'trpc-mutation' : { ok: false, status: 405, reason: 'tRPC mutations are POST only' };
  }
  if (types.some((t) => t === 'mutation')) return { ok: false, status: 405, reason: 'a batch may not mix mutations with queries' };
  return method === 'GET' || method === 'HEAD' ? 'trpc-read' : { ok: false, status: 405, reason: 'tRPC queries and subscriptions are GET only' };
}

/**
 * Which agent and kind a path is, or why it is not forwarded. `path` is the decoded path the checks use; the
 * forwarded `path` is the raw one (parseTarget refused encoded separators, so both have the same segments).
 */
export function agentRoute(path: string, rawPath: string, method: string, agents: ReadonlySet<string>): AgentRoute {
  let agent = 'default';
  let rest = path;
  let rawRest = rawPath;
  const m = /^\/agents\/([^/]+)(\/.*)$/.exec(path);
  if (m?.[1] && m[2]) {
    if (!AGENT_NAME.test(m[1]) || !agents.has(m[1]) || !rawPath.startsWith(`/agents/${m[1]}/`)) return notFound(path);
    agent = m[1];
    rest = m[2];
    rawRest = rawPath.slice(`/agents/${m[1]}`.length);
  }
  const trpc = /^\/trpc\/([^/]+)$/.exec(rest);
  if (trpc?.[1]) {
    const kind = trpcKind(trpc[1], method);
    return typeof kind === 'string' ? { ok: true, agent, path: rawRest, kind } : kind;
  }
  if (rest === '/socket.io/') {
    return method === 'GET' || method === 'POST' ? { ok: true, agent, path: rawRest, kind: 'socket.io' } : { ok: false, status: 405, reason: 'socket.io is GET/POST only' };
  }
  if (CADVISOR.test(rest)) {
    return method === 'GET' || method === 'HEAD' ? { ok: true, agent, path: rawRest, kind: 'cadvisor' } : { ok: false, status: 405, reason: 'the cAdvisor API is GET only' };
  }
  if (CONTAINER_LOGS.test(rest)) {
    return method === 'GET' || method === 'HEAD' ? { ok: true, agent, path: rawRest, kind: 'logs' } : { ok: false, status: 405, reason: 'container logs are GET only' };
  }
  return notFound(path);
}
