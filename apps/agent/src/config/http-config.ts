/**
 * Settings of the agent's HTTP listeners that the kubelet has no KubeletConfiguration field for (flags only):
 * the console token file (standalone sign-in with a bearer token on 10250) and the per-listener connection limits
 * (cap on concurrent connections, header timeout, keep-alive idle timeout).
 */
import type { FlagSpec } from './flag-spec.ts';

export interface HttpAgentConfig {
  /** --console-token-file; '' until merged, then <root-dir>/console.token unless given. */
  consoleTokenFile: string;
  /** --http-max-connections: concurrent connections per listener; more are closed at once. */
  httpMaxConnections: number;
  /** --http-header-timeout: TLS handshake plus request headers must arrive within this. */
  httpHeaderTimeoutMs: number;
  /** --http-idle-timeout: a keep-alive connection with no request in flight is closed after this (kubelet: 90s). */
  httpIdleTimeoutMs: number;
}

export const HTTP_DEFAULTS: HttpAgentConfig = {
  consoleTokenFile: '',
  httpMaxConnections: 512,
  httpHeaderTimeoutMs: 10_000,
  httpIdleTimeoutMs: 90_000,
};

export const CONSOLE_TOKEN_FILE_NAME = 'console.token';

export const HTTP_FLAG_SPECS: FlagSpec<keyof HttpAgentConfig>[] = [
  { name: 'console-token-file', kind: 'string', key: 'consoleTokenFile', help: '(nodelet) Console sign-in token: "Authorization: Bearer <token>" on the kubelet port authenticates as nodelet:console-admin (system:masters). Created (0600) if missing.', defaultText: '<root-dir>/console.token' },
  { name: 'http-max-connections', kind: 'int', key: 'httpMaxConnections', help: '(nodelet) Concurrent connections per listener (kubelet, read-only, healthz); further connections are closed at once.', defaultText: String(HTTP_DEFAULTS.httpMaxConnections) },
  { name: 'http-header-timeout', kind: 'duration', key: 'httpHeaderTimeoutMs', help: '(nodelet) Time for a connection to complete the TLS handshake and send its request headers.', defaultText: '10s' },
  { name: 'http-idle-timeout', kind: 'duration', key: 'httpIdleTimeoutMs', help: '(nodelet) Keep-alive connections without a request in flight are closed after this. Streams (exec, attach, port-forward, log follow, watch) are not idle.', defaultText: '1m30s' },
];

export function validateHttp(c: HttpAgentConfig): string | undefined {
  if (!Number.isInteger(c.httpMaxConnections) || c.httpMaxConnections < 1) return `httpMaxConnections: must be at least 1, got ${c.httpMaxConnections}`;
  if (c.httpHeaderTimeoutMs <= 0) return 'httpHeaderTimeout: must be greater than 0';
  if (c.httpIdleTimeoutMs <= 0) return 'httpIdleTimeout: must be greater than 0';
  return undefined;
}
