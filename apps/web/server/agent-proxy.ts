/**
 * Reverse proxy from the console's origin to the agent: /trpc (incl. SSE subscriptions) and /socket.io
 * (polling + websocket upgrade), authenticating with the console's client certificate. The certificate is
 * read lazily (the agent may create it after the console starts) and re-read after a failed request.
 * Agent down → 502 JSON `{ error: "agent unreachable: ..." }`; the proxy never throws.
 */
import { readFileSync } from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import { Agent as HttpAgent, ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import httpProxy from 'http-proxy';
import { pkiFiles } from './config.ts';

export interface AgentProxyConfig {
  agentUrl: URL;
  pkiDir: string;
}

export interface AgentProxyDeps {
  readFile?: (path: string) => string;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}

export interface AgentProxy {
  web(req: IncomingMessage, res: ServerResponse): void;
  ws(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

type Creds = { ca: string; cert: string; key: string };
type Target = { protocol: string; host: string; hostname: string; port: number } & Partial<Creds>;

function unreachableBody(reason: string): string {
  return JSON.stringify({ error: `agent unreachable: ${reason}` });
}

export function createAgentProxy(config: AgentProxyConfig, deps: AgentProxyDeps = {}): AgentProxy {
  const readFile = deps.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const log = deps.log ?? (() => {});
  const url = config.agentUrl;
  const tls = url.protocol === 'https:';
  const port = Number(url.port || (tls ? 443 : 80));
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let creds: Creds | undefined;
  let keepAlive: HttpAgent | undefined;

  function target(): { ok: true; target: Target } | { ok: false; reason: string } {
    if (!tls) return { ok: true, target: { protocol: 'http:', host: hostname, hostname, port } };
    if (!creds) {
      const f = pkiFiles(config.pkiDir);
      try {
        creds = { ca: readFile(f.ca), cert: readFile(f.cert), key: readFile(f.key) };
      } catch (err) {
        return { ok: false, reason: `cannot read client certificate in ${config.pkiDir}: ${(err as Error).message}` };
      }
      keepAlive?.destroy();
      keepAlive = new HttpsAgent({ keepAlive: true, maxSockets: 64 });
    }
    return { ok: true, target: { protocol: 'https:', host: hostname, hostname, port, ...creds } };
  }

  const proxy = httpProxy.createProxyServer({ secure: true, changeOrigin: true, xfwd: true, ws: true });

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
    // A failed TLS handshake may mean the agent regenerated its PKI: re-read it next time.
    creds = undefined;
    log('agent proxy error', { url: req.url, error: err.message });
    fail(res as ServerResponse | Duplex, err.message);
  });

  proxy.on('proxyRes', (proxyRes) => {
    // Server-sent events must stream: no buffering by intermediaries.
    if (String(proxyRes.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      proxyRes.headers['x-accel-buffering'] = 'no';
      proxyRes.headers['cache-control'] = 'no-cache, no-transform';
    }
  });

  return {
    web(req, res) {
      const t = target();
      if (!t.ok) return fail(res, t.reason);
      try {
        proxy.web(req, res, { target: t.target as unknown as httpProxy.ProxyTargetUrl, agent: keepAlive });
      } catch (err) {
        fail(res, (err as Error).message);
      }
    },
    ws(req, socket, head) {
      socket.on('error', () => socket.destroy());
      const t = target();
      if (!t.ok) return fail(socket, t.reason);
      try {
        proxy.ws(req, socket, head, { target: t.target as unknown as httpProxy.ProxyTargetUrl });
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
