/**
 * The console's entry point: one HTTP server on PORT (default 4194) that serves the built Next app and
 * proxies /trpc, /socket.io (incl. websocket upgrades) and the cAdvisor REST API under /api/ to the agent with the console's client certificate.
 *
 *   node --import tsx apps/web/server.ts        (after `npm run build -w @nodelet/web`; NODELET_WEB_DEV=1 for dev)
 *
 * Env: PORT, HOSTNAME (default 127.0.0.1), NODELET_AGENT_URL (default https://127.0.0.1:10250),
 * NODELET_PKI_DIR (ca.crt, console.crt, console.key; default /var/lib/kubelet/pki), NODELET_WEB_DEV=1,
 * NODELET_AGENTS (more agents: name=https://host:port[|pki-dir],... → /agents/<name>/..., listed at /agents.json).
 */
import { createServer, type IncomingMessage } from 'node:http';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgentProxy } from './server/agent-proxy.ts';
import { isAgentPath, readConsoleConfig } from './server/config.ts';
import { agentRoute, agentsListing, parseAgents } from './server/agents.ts';

process.env.NEXT_TELEMETRY_DISABLED = '1';

function log(msg: string, fields: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), component: 'console', msg, ...fields }));
}

async function main(): Promise<void> {
  const parsed = readConsoleConfig(process.env);
  if (!parsed.ok) {
    console.error(`console: ${parsed.reason}`);
    process.exit(2);
  }
  const cfg = parsed.config;
  const dir = dirname(fileURLToPath(import.meta.url));
  const { default: next } = await import('next');
  const app = next({ dev: cfg.dev, dir, hostname: cfg.hostname, port: cfg.port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const nextUpgrade = app.getUpgradeHandler();
  const proxy = createAgentProxy({ agentUrl: cfg.agentUrl, pkiDir: cfg.pkiDir }, { log });
  // Several agents (NODELET_AGENTS): /agents/<name>/{trpc,socket.io,api} → that agent; /agents.json lists them.
  const agents = parseAgents(process.env.NODELET_AGENTS, { name: 'default', url: cfg.agentUrl, pkiDir: cfg.pkiDir });
  if (!agents.ok) {
    console.error(`console: ${agents.reason}`);
    process.exit(2);
  }
  const proxies = new Map(agents.agents.map((a) => [a.name, createAgentProxy({ agentUrl: a.url, pkiDir: a.pkiDir }, { log })]));
  const routed = (req: IncomingMessage) => {
    const r = agentRoute(req.url);
    const p = r && proxies.get(r.name);
    if (!r || !p) return undefined;
    req.url = r.path;
    return p;
  };

  const server = createServer((req, res) => {
    if (isAgentPath(req.url)) return proxy.web(req, res);
    if (req.url === '/agents.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return void res.end(JSON.stringify(agentsListing(agents.agents)));
    }
    const p = routed(req);
    if (p) return p.web(req, res);
    handle(req, res).catch((err: unknown) => {
      log('request failed', { url: req.url, error: String(err) });
      if (!res.headersSent) res.writeHead(500).end('internal error');
    });
  });
  server.on('upgrade', (req, socket, head) => {
    if (isAgentPath(req.url)) return proxy.ws(req, socket, head);
    const p = routed(req);
    if (p) return p.ws(req, socket, head);
    if (cfg.dev) return void nextUpgrade(req, socket, head);
    socket.destroy();
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(cfg.port, cfg.hostname, resolve);
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : cfg.port;
  const host = cfg.hostname.includes(':') ? `[${cfg.hostname}]` : cfg.hostname;
  console.log(`console listening on http://${host}:${port} (agent ${cfg.agentUrl.origin}${cfg.dev ? ', dev' : ''})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('stopping', { signal });
    proxy.close();
    for (const p of proxies.values()) p.close();
    server.closeAllConnections();
    server.close(() => {
      void app.close().finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error('console failed to start:', err);
  process.exit(1);
});
