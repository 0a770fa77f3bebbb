/**
 * The console's entry point: one HTTP server on PORT (default 4194, bound to 127.0.0.1) that serves the built Next
 * app to signed-in users and proxies the agent paths the console needs (tRPC, socket.io incl. websocket upgrades,
 * the cAdvisor REST API under /api/) with the user's own token (server/console-server.ts). The console holds no
 * credential of its own; it trusts only ca.crt, to verify the agent's TLS certificate.
 *
 *   node dist/web/server.js                     (after `npm run build` and `npm run build -w @nodelet/web`)
 *   node --import tsx apps/web/server.ts        (from source; NODELET_WEB_DEV=1 for dev)
 *
 * Env: PORT, NODELET_CONSOLE_ADDRESS (bind address, default 127.0.0.1), NODELET_AGENT_URL (default
 * https://127.0.0.1:10250), NODELET_PKI_DIR (ca.crt; default /var/lib/kubelet/pki), NODELET_NODE_NAME and
 * NODELET_CONSOLE_HOSTS (extra host names the console answers to), NODELET_CONSOLE_SESSION_HOURS (12),
 * NODELET_CONSOLE_MAX_CONNECTIONS (512), NODELET_WEB_DEV=1, NODELET_AGENTS (more agents:
 * name=https://host:port[|pki-dir],... → /agents/<name>/..., listed at /agents.json).
 */
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAgents } from './server/agents.ts';
import { readConsoleConfig } from './server/config.ts';
import { createConsoleServer } from './server/console-server.ts';

process.env.NEXT_TELEMETRY_DISABLED = '1';

function log(msg: string, fields: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), component: 'console', msg, ...fields }));
}

async function main(): Promise<void> {
  const parsed = readConsoleConfig(process.env, hostname().toLowerCase());
  if (!parsed.ok) {
    console.error(`console: ${parsed.reason}`);
    process.exit(2);
  }
  const cfg = parsed.config;
  const agents = parseAgents(process.env.NODELET_AGENTS, { name: 'default', url: cfg.agentUrl, pkiDir: cfg.pkiDir });
  if (!agents.ok) {
    console.error(`console: ${agents.reason}`);
    process.exit(2);
  }
  // The Next app is apps/web, whether this runs from its source or as `npm run build`'s dist/web/server.js.
  const here = dirname(fileURLToPath(import.meta.url));
  const dir = import.meta.url.endsWith('.js') ? join(here, '..', '..', 'apps', 'web') : here;
  const { default: next } = await import('next');
  const app = next({ dev: cfg.dev, dir, hostname: cfg.hostname, port: cfg.port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const nextUpgrade = app.getUpgradeHandler();
  const consoleServer = createConsoleServer({ config: cfg, agents: agents.agents, nextHandler: (req, res) => handle(req, res), nextUpgrade, log });
  const { server } = consoleServer;

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
    consoleServer.close();
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
  console.error('console failed to start:', err instanceof Error ? err.message : String(err));
  process.exit(1);
});
