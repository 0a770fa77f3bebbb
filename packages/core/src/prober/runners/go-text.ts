/**
 * Failure texts as the kubelet (a Go program) prints them, so probe events read the same as upstream:
 * `dial tcp 127.0.0.1:8080: connect: connection refused`, `Get "http://…": …`, durations as `1s`, `1m30s`.
 */

/** Max bytes of probe output kept (the kubelet's maxRespBodyLength / exec read limit: 10 KiB). */
export const MAX_OUTPUT_BYTES = 10 * 1024;

export function joinHostPort(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** A Go time.Duration String() for whole seconds. */
export function goDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

const CONNECT_ERRNO: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network is unreachable',
  EADDRNOTAVAIL: 'cannot assign requested address',
  EACCES: 'permission denied',
};

/** A node socket error as Go's net.Dial error text. */
export function goDialError(err: unknown, host: string, port: number): string {
  const addr = joinHostPort(host, port);
  const e = err as NodeJS.ErrnoException & { hostname?: string };
  const code = e?.code ?? '';
  if (code in CONNECT_ERRNO) return `dial tcp ${addr}: connect: ${CONNECT_ERRNO[code]}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `dial tcp: lookup ${host}: no such host`;
  if (code === 'ECONNRESET') return `read tcp ${addr}: read: connection reset by peer`;
  if (code === 'ETIMEDOUT') return `dial tcp ${addr}: i/o timeout`;
  return `dial tcp ${addr}: ${e instanceof Error ? e.message : String(err)}`;
}

/** Truncates output to MAX_OUTPUT_BYTES (UTF-8). */
export function limitOutput(b: Buffer | string): string {
  const buf = typeof b === 'string' ? Buffer.from(b) : b;
  return buf.subarray(0, MAX_OUTPUT_BYTES).toString('utf8');
}
