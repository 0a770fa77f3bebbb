/**
 * Reverse proxy from the console's origin to one agent: tRPC (incl. SSE subscriptions), socket.io (polling +
 * websocket upgrade) and the cAdvisor REST API. The console holds no credential of its own: every request carries
 * the signed-in user's token as `Authorization: Bearer`, so the agent's authentication and authorization decide.
 * What the browser sent that the agent must not trust is dropped (Cookie, its own Authorization, X-Forwarded-*,
 * Forwarded, impersonation headers, Origin/Referer/Sec-Fetch-* which the console already checked). The agent's TLS
 * certificate is verified against ca.crt, read lazily (the agent may create it after the console starts) and re-read
 * after a failed request. Agent down → 502 JSON in tRPC's error shape, `{ error: { message: "agent unreachable: ...",
 * code, data } }`; the proxy never throws.
 */
import { readFileSync } from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import { Agent as HttpAgent, ServerResponse, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Duplex, Readable } from 'node:stream';
import httpProxy from 'http-proxy';

export interface AgentProxyConfig {
  agentUrl: URL;
  /** The CA that signed the agent's serving certificate. */
  caFile: string;
}

export interface AgentProxyDeps {
  readFile?: (path: string) => string;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

export interface ForwardOptions {
  /** The path (and query) to request from the agent. */
  target: string;
  token: string;
  /** A body read (and size-checked) before forwarding. */
  body?: Readable;
  /** Told the agent's response status (the console ends a session whose token the agent no longer accepts). */
  onResponse?: (status: number) => void;
}

export interface AgentProxy {
  web(req: IncomingMessage, res: ServerResponse, o: ForwardOptions): void;
  ws(req: IncomingMessage, socket: Duplex, head: Buffer, o: ForwardOptions): void;
  close(): void;
}

type Target = { protocol: string; host: string; hostname: string; port: number; ca?: string };

const DROPPED = /^(cookie|authorization|proxy-authorization|forwarded|origin|referer|x-forwarded-.*|x-real-ip|x-nodelet-csrf|impersonate-.*|sec-fetch-.*)$/i;

/** The headers the agent gets: the client's minus what it must not trust, plus the user's bearer token. */
export function forwardedHeaders(headers: IncomingHttpHeaders, token: string): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (!DROPPED.test(k)) out[k] = v;
  out.authorization = `Bearer ${token}`;
  return out;
}

/** In tRPC's error shape, so that the console's tRPC clients show the reason (message) as for any failed call. */
function unreachableBody(reason: string): string {
  return JSON.stringify({ error: { message: `agent unreachable: ${reason}`, code: -32603, data: { code: 'BAD_GATEWAY', httpStatus: 502 } } });
}

export function createAgentProxy(config: AgentProxyConfig, deps: AgentProxyDeps = {}): AgentProxy {
  const readFile = deps.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const log = deps.log ?? (() => {});
  const url = config.agentUrl;
  const tls = url.protocol === 'https:';
  const port = Number(url.port || (tls ? 443 : 80));
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let ca: string | undefined;
  let keepAlive: HttpAgent | undefined;

  function target(): { ok: true; target: Target } | { ok: false; reason: string } {
    if (!tls) return { ok: true, target: { protocol: 'http:', host: hostname, hostname, port } };
    if (!ca) {
      try {
        ca = readFile(config.caFile);
      } catch (err) {
        log('cannot read the agent CA certificate', { file: config.caFile, error: (err as Error).message });
        return { ok: false, reason: "cannot read the agent's CA certificate (see the console log)" };
      }
      keepAlive?.destroy();
      keepAlive = new HttpsAgent({ keepAlive: true, maxSockets: 64 });
    }
    return { ok: true, target: { protocol: 'https:', host: hostname, hostname, port, ca } };
  }

  const proxy = httpProxy.createProxyServer({ secure: true, changeOrigin: true, xfwd: false, ws: true, ignorePath: true });

  function fail(res: ServerResponse | Duplex, reason: string): void {
    if (res instanceof ServerResponse) {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(unreachableBody(reason));
      } else {
        res.destroy();
      }
      return;
    }
    if (!res.destroyed) {
      const body = unreachableBody(reason);
      res.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    }
  }

  proxy.on('error', (err, req, res) => {
    // A failed TLS handshake may mean the agent regenerated its PKI: re-read the CA next time.
    ca = undefined;
    log('agent proxy error', { url: req.url, error: err.message });
    const code = (err as NodeJS.ErrnoException).code;
    fail(res as ServerResponse | Duplex, code ? `${code} ${url.host}` : 'connection to the agent failed (see the console log)');
  });

  const watchers = new WeakMap<IncomingMessage, (status: number) => void>();
  proxy.on('proxyRes', (proxyRes, req) => {
    watchers.get(req)?.(proxyRes.statusCode ?? 0);
    delete proxyRes.headers['set-cookie'];
    // Server-sent events must stream: no buffering by intermediaries.
    if (String(proxyRes.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      proxyRes.headers['x-accel-buffering'] = 'no';
      proxyRes.headers['cache-control'] = 'no-cache, no-transform';
    }
  });

  // ignorePath: the outgoing path is exactly o.target (already checked), not joined with req.url.
  const options = (t: Target, o: ForwardOptions, agent?: HttpAgent): httpProxy.ServerOptions => ({
    target: { ...t, path: o.target } as unknown as httpProxy.ProxyTargetUrl,
    ...(agent ? { agent } : {}),
    ...(o.body ? { buffer: o.body as unknown as httpProxy.ServerOptions['buffer'] } : {}),
  });

  return {
    web(req, res, o) {
      const t = target();
      if (!t.ok) return fail(res, t.reason);
      req.headers = forwardedHeaders(req.headers, o.token);
      if (o.onResponse) watchers.set(req, o.onResponse);
      try {
        proxy.web(req, res, options(t.target, o, keepAlive));
      } catch (err) {
        fail(res, (err as Error).message);
      }
    },
    ws(req, socket, head, o) {
      socket.on('error', () => socket.destroy());
      const t = target();
      if (!t.ok) return fail(socket, t.reason);
      req.headers = forwardedHeaders(req.headers, o.token);
      try {
        proxy.ws(req, socket, head, options(t.target, o));
      } catch (err) {
        fail(socket, (err as Error).message);
      }
    },
    close() {
      keepAlive?.destroy();
      proxy.close();
    },
  };
}
