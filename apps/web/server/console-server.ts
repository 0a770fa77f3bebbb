/**
 * The console's HTTP server without Next (tests start it on port 0 with a stand-in page handler): Host allow-list,
 * one URL check, sign-in (token URL, form) and sessions, the Origin/CSRF checks, the strict allow-list of agent
 * paths, and the proxy forwarding the user's own token. Order for every request: Host → URL → sign-in routes →
 * credentials → (API) Origin, allow-list, CSRF, body limit → agent; (pages) session → Next.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable, type Duplex } from 'node:stream';
import { createAgentProxy, type AgentProxy } from './agent-proxy.ts';
import { agentRoute, isApiPath } from './agent-routes.ts';
import { agentsListing, type AgentTarget } from './agents.ts';
import { caFile, type ConsoleConfig } from './config.ts';
import { answerClientError, redirect, rejectUpgrade, sendError, sendJson, sendSignIn } from './respond.ts';
import { allowedHosts, checkHost, checkMutation, checkOrigin, checkSameOriginWrite, checkUpgrade, type Check } from './request-checks.ts';
import { parseTarget, withoutParam } from './request-path.ts';
import { clearedCookie, cookieName, createSessionStore, readCookie, sessionCookie, type SessionStore } from './sessions.ts';
import { createTokenChecker, readBody, safeNext, SIGN_IN_PATH, SIGN_OUT_PATH, type TokenChecker } from './sign-in.ts';

export type Log = (msg: string, fields?: Record<string, unknown>) => void;

export interface ConsoleServerDeps {
  config: ConsoleConfig;
  /** Every agent (the first named `default` serves the console's own pages). */
  agents: AgentTarget[];
  nextHandler: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;
  /** Next's websocket upgrades (dev-mode HMR). */
  nextUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => unknown;
  /** The token check against the default agent (default: a tRPC read with the token). */
  checkToken?: TokenChecker;
  now?: () => number;
  readFile?: (path: string) => string;
  log?: Log;
}

export interface ConsoleServer {
  server: Server;
  sessions: SessionStore;
  close(): void;
}

const TOKEN = /^[\x21-\x7e]{1,8192}$/;

function bearerOf(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

export function createConsoleServer(d: ConsoleServerDeps): ConsoleServer {
  const { config } = d;
  const log = d.log ?? (() => {});
  const now = d.now ?? Date.now;
  const readFile = d.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const sessions = createSessionStore({ ttlMs: config.sessionTtlMs, max: 1000, now });
  const proxies = new Map<string, AgentProxy>(d.agents.map((a) => [a.name, createAgentProxy({ agentUrl: a.url, caFile: caFile(a.pkiDir) }, { readFile, log })]));
  const names = new Set(proxies.keys());
  const first = d.agents.find((a) => a.name === 'default') ?? d.agents[0];
  if (!first) throw new Error('no agent configured');
  const def: AgentTarget = first;
  const checkToken = d.checkToken ?? createTokenChecker(def.url, () => readFile(caFile(def.pkiDir)));
  const hosts = allowedHosts(config.hostname, config.nodeName, config.extraHosts);
  const cookie = cookieName(config.port);

  const sessionOf = (req: IncomingMessage) => sessions.get(readCookie(req.headers.cookie, cookie));

  async function signIn(res: ServerResponse, token: string | null, next: string): Promise<void> {
    if (!token || !TOKEN.test(token)) return sendSignIn(res, 401, next, 'that is not a token');
    const r = await checkToken(token);
    if (!r.ok) {
      log('sign-in refused', { status: r.status, reason: r.reason });
      return sendSignIn(res, r.status, next, r.reason);
    }
    const s = sessions.create(token);
    log('signed in', { sessions: sessions.size() });
    redirect(res, next, { 'set-cookie': sessionCookie(cookie, s, now()) });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const refuse = (c: Check & { ok: false }) => sendError(res, c.status, c.reason);
    const host = checkHost(req.headers, hosts, config.hostname);
    if (!host.ok) return refuse(host);
    const t = parseTarget(req.url);
    if (!t.ok) return sendError(res, 400, t.reason);
    const { path, rawPath, query, params } = t;
    const api = isApiPath(path);

    if (path === SIGN_IN_PATH) {
      if (method === 'GET' || method === 'HEAD') return sendSignIn(res, 200, safeNext(params.get('next')));
      if (method !== 'POST') return sendError(res, 405, 'sign-in is GET or POST');
      const w = checkSameOriginWrite(req.headers);
      if (!w.ok) return refuse(w);
      const body = await readBody(req, 16 * 1024);
      if (!body) return sendError(res, 413, 'sign-in form too large');
      const form = new URLSearchParams(body.toString('utf8'));
      return signIn(res, form.get('token')?.trim() ?? null, safeNext(form.get('next')));
    }
    if (path === SIGN_OUT_PATH) {
      if (method !== 'POST') return sendError(res, 405, 'sign-out is POST');
      const w = checkSameOriginWrite(req.headers);
      if (!w.ok) return refuse(w);
      sessions.delete(readCookie(req.headers.cookie, cookie));
      return redirect(res, SIGN_IN_PATH, { 'set-cookie': clearedCookie(cookie) });
    }
    if (!api && (method === 'GET' || method === 'HEAD') && params.has('token')) {
      // The token URL printed by `npm start`: sign in, then the same page without the token in the address bar.
      const back = withoutParam(rawPath, query, 'token');
      // Followed from another site's page (login CSRF): not signed in; the sign-in page says why.
      if (!checkOrigin(req.headers).ok) return sendSignIn(res, 403, back, 'a sign-in link works only when opened directly, not from another site: paste the token');
      return signIn(res, params.get('token'), back);
    }

    const session = sessionOf(req);
    if (!api) {
      if (!session) {
        if (method === 'GET' || method === 'HEAD') return sendSignIn(res, 401, safeNext(req.url));
        return sendError(res, 401, 'sign in required');
      }
      res.setHeader('x-frame-options', 'DENY');
      res.setHeader('content-security-policy', "frame-ancestors 'none'");
      return void (await d.nextHandler(req, res));
    }

    const o = checkOrigin(req.headers);
    if (!o.ok) return refuse(o);
    const bearer = bearerOf(req);
    const token = bearer ?? session?.token;
    if (!token) return sendJson(res, 401, { error: 'sign in required', signIn: SIGN_IN_PATH });
    if (path === '/agents.json') {
      if (!session) return sendError(res, 401, 'sign in required');
      return sendJson(res, 200, agentsListing(d.agents));
    }
    const route = agentRoute(path, rawPath, method, names);
    if (!route.ok) return sendError(res, route.status, route.reason);
    if (route.kind === 'trpc-mutation') {
      const m = checkMutation(req.headers);
      if (!m.ok) return refuse(m);
    } else if (method === 'POST') {
      const w = checkSameOriginWrite(req.headers);
      if (!w.ok) return refuse(w);
    }
    let body: Readable | undefined;
    if (method === 'POST') {
      const buf = await readBody(req, config.limits.maxBodyBytes);
      if (!buf) return sendError(res, 413, `request body larger than ${config.limits.maxBodyBytes} bytes`);
      req.headers['content-length'] = String(buf.length);
      delete req.headers['transfer-encoding'];
      body = Readable.from([buf]);
    } else if (req.headers['transfer-encoding'] || Number(req.headers['content-length'] ?? 0) > 0) {
      return sendError(res, 400, `a ${method} request has no body`);
    }
    const endSession = session && !bearer && route.agent === def.name ? () => sessions.delete(session.id) : undefined;
    proxies.get(route.agent)?.web(req, res, {
      target: query ? `${route.path}?${query}` : route.path,
      token,
      ...(body ? { body } : {}),
      // The default agent no longer accepts the session's token: the session ends (the page shows sign-in).
      ...(endSession ? { onResponse: (status: number) => status === 401 && endSession() } : {}),
    });
  }

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const refuse = (status: number, reason: string) => rejectUpgrade(socket, status, reason);
    const host = checkHost(req.headers, hosts, config.hostname);
    if (!host.ok) return refuse(host.status, host.reason);
    const t = parseTarget(req.url);
    if (!t.ok) return refuse(400, t.reason);
    const session = sessionOf(req);
    const token = bearerOf(req) ?? session?.token;
    if (!token) return refuse(401, 'sign in required');
    const origin = checkUpgrade(req.headers);
    if (!origin.ok) return refuse(origin.status, origin.reason);
    if (config.dev && d.nextUpgrade && t.path.startsWith('/_next/') && session) return void d.nextUpgrade(req, socket, head);
    const route = agentRoute(t.path, t.rawPath, req.method ?? 'GET', names);
    if (!route.ok || route.kind !== 'socket.io') return refuse(404, 'no websocket here');
    proxies.get(route.agent)?.ws(req, socket, head, { target: t.query ? `${route.path}?${t.query}` : route.path, token });
  }

  // Timeouts are enforced when Node checks connections: often enough that a silent client goes within a second.
  const checkEveryMs = Math.max(50, Math.min(1000, config.limits.headersTimeoutMs));
  const server = createServer({ maxHeaderSize: 16 * 1024, connectionsCheckingInterval: checkEveryMs }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      log('request failed', { url: req.url, error: String(err) });
      if (!res.headersSent) sendError(res, 500, 'internal error');
      else res.destroy();
    });
  });
  server.headersTimeout = config.limits.headersTimeoutMs;
  server.requestTimeout = config.limits.requestTimeoutMs;
  server.keepAliveTimeout = config.limits.keepAliveTimeoutMs;
  server.maxConnections = config.limits.maxConnections;
  server.on('upgrade', upgrade);
  server.on('clientError', answerClientError);
  return {
    server,
    sessions,
    close() {
      for (const p of proxies.values()) p.close();
    },
  };
}
