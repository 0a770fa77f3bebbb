/** The console server's settings, from the environment (pure; tested). */
import { join } from 'node:path';

export interface ConsoleConfig {
  port: number;
  hostname: string;
  /** The agent's base URL (https://host:10250). */
  agentUrl: URL;
  /** Directory holding ca.crt, console.crt, console.key (the agent writes them under <root-dir>/pki). */
  pkiDir: string;
  dev: boolean;
}

export const DEFAULT_PKI_DIR = '/var/lib/kubelet/pki';

export type ConfigResult = { ok: true; config: ConsoleConfig } | { ok: false; reason: string };

export function readConsoleConfig(env: Record<string, string | undefined>): ConfigResult {
  const port = Number(env.PORT ?? '4194');
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { ok: false, reason: `invalid PORT ${JSON.stringify(env.PORT)}` };
  let agentUrl: URL;
  try {
    agentUrl = new URL(env.NODELET_AGENT_URL || 'https://127.0.0.1:10250');
  } catch {
    return { ok: false, reason: `invalid NODELET_AGENT_URL ${JSON.stringify(env.NODELET_AGENT_URL)}` };
  }
  if (agentUrl.protocol !== 'https:' && agentUrl.protocol !== 'http:') {
    return { ok: false, reason: `NODELET_AGENT_URL must be http(s), got ${agentUrl.protocol}` };
  }
  return {
    ok: true,
    config: {
      port,
      hostname: env.HOSTNAME || '127.0.0.1',
      agentUrl,
      pkiDir: env.NODELET_PKI_DIR || DEFAULT_PKI_DIR,
      dev: env.NODELET_WEB_DEV === '1',
    },
  };
}

export function pkiFiles(dir: string): { ca: string; cert: string; key: string } {
  return { ca: join(dir, 'ca.crt'), cert: join(dir, 'console.crt'), key: join(dir, 'console.key') };
}

/** Path prefixes served by the agent: tRPC, socket.io, and the cAdvisor REST API (/api/v1.3/..., /api/v2.0/...). */
const AGENT_PREFIXES = ['/trpc', '/socket.io', '/api'];

/** Which requests go to the agent rather than to Next. */
export function isAgentPath(url: string | undefined): boolean {
  if (!url) return false;
  const path = url.split('?')[0] ?? '';
  return AGENT_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}
