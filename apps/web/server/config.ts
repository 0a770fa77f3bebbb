/** The console server's settings, from the environment (pure; tested). */
import { join } from 'node:path';

export interface ConsoleLimits {
  /** Time to receive a request's headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request (not the response: SSE and websockets stay open). */
  requestTimeoutMs: number;
  /** Idle time of a keep-alive connection between requests. */
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /** Largest request body forwarded (tRPC mutations, socket.io polling) or read (sign-in form). */
  maxBodyBytes: number;
}

export interface ConsoleConfig {
  port: number;
  /** Bind address (NODELET_CONSOLE_ADDRESS, default 127.0.0.1). */
  hostname: string;
  /** The agent's base URL (https://host:10250). */
  agentUrl: URL;
  /** Directory holding ca.crt, the CA of the agent's serving certificate (the agent writes it under <root-dir>/pki). */
  pkiDir: string;
  dev: boolean;
  /** Node name (NODELET_NODE_NAME, else the machine's host name) and NODELET_CONSOLE_HOSTS: names the console answers to. */
  nodeName?: string;
  extraHosts?: string;
  sessionTtlMs: number;
  limits: ConsoleLimits;
}

export const DEFAULT_PKI_DIR = '/var/lib/kubelet/pki';

export const DEFAULT_LIMITS: ConsoleLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
  maxBodyBytes: 256 * 1024,
};

export type ConfigResult = { ok: true; config: ConsoleConfig } | { ok: false; reason: string };

function positive(env: Record<string, string | undefined>, name: string, fallback: number): number | string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : `invalid ${name} ${JSON.stringify(raw)} (a positive integer)`;
}

export function readConsoleConfig(env: Record<string, string | undefined>, machineName?: string): ConfigResult {
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
  const ttlHours = positive(env, 'NODELET_CONSOLE_SESSION_HOURS', 12);
  const maxConnections = positive(env, 'NODELET_CONSOLE_MAX_CONNECTIONS', DEFAULT_LIMITS.maxConnections);
  for (const v of [ttlHours, maxConnections]) if (typeof v === 'string') return { ok: false, reason: v };
  const nodeName = env.NODELET_NODE_NAME || machineName;
  return {
    ok: true,
    config: {
      port,
      // Not HOSTNAME: container runtimes export it as the container's name, which would bind beyond loopback.
      hostname: env.NODELET_CONSOLE_ADDRESS || '127.0.0.1',
      agentUrl,
      pkiDir: env.NODELET_PKI_DIR || DEFAULT_PKI_DIR,
      dev: env.NODELET_WEB_DEV === '1',
      ...(nodeName ? { nodeName } : {}),
      ...(env.NODELET_CONSOLE_HOSTS ? { extraHosts: env.NODELET_CONSOLE_HOSTS } : {}),
      sessionTtlMs: (ttlHours as number) * 3600_000,
      limits: { ...DEFAULT_LIMITS, maxConnections: maxConnections as number },
    },
  };
}

/** The agent CA certificate in a PKI directory (the console uses nothing else from it). */
export const caFile = (dir: string) => join(dir, 'ca.crt');
