/**
 * The Kubernetes channel protocol over WebSocket (remote command and port-forward): every binary message starts
 * with a channel byte. Remote command: 0 stdin, 1 stdout, 2 stderr, 3 error (a v1 Status JSON), 4 resize;
 * v5 adds 255 = "close channel N" (client → server). Port-forward: per requested port i, data channel 2i and
 * error channel 2i+1, each opened by a first message carrying the port as uint16 little-endian.
 */

export const STDIN = 0;
export const STDOUT = 1;
export const STDERR = 2;
export const ERROR = 3;
export const RESIZE = 4;
export const CLOSE = 255;

/** Subprotocols we speak, best first (all share the same binary framing). */
export const REMOTE_COMMAND_PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'channel.k8s.io'] as const;
export const PORT_FORWARD_PROTOCOLS = ['portforward.k8s.io', 'v5.channel.k8s.io', 'v4.channel.k8s.io', 'channel.k8s.io'] as const;

/** The first subprotocol of ours the client offered (in our preference order), or false. */
export function pickProtocol(offered: Iterable<string>, ours: readonly string[]): string | false {
  const set = new Set(offered);
  return ours.find((p) => set.has(p)) ?? false;
}

export function frame(channel: number, data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data) : data;
  return Buffer.concat([Buffer.from([channel]), body]);
}

/** Split a received message into its channel and payload (undefined for an empty message). */
export function unframe(msg: Buffer): { channel: number; data: Buffer } | undefined {
  if (msg.length === 0) return undefined;
  return { channel: msg[0]!, data: msg.subarray(1) };
}

export interface V1StatusBody {
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: { causes: { reason: string; message: string }[] };
}

/** The status written on the error channel when the command ends: Success, or NonZeroExitCode with ExitCode. */
export function exitStatus(code: number): V1StatusBody {
  if (code === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [...], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  };
}

export function failureStatus(message: string): V1StatusBody {
  return { metadata: {}, status: 'Failure', message };
}

/** channel.k8s.io = 1, v2.channel.k8s.io = 2, ... */
export function protocolVersion(protocol: string): number {
  const m = /^v(\d+)\.channel\.k8s\.io$/.exec(protocol);
  return m ? Number(m[1]) : 1;
}

/**
 * What goes on the error channel / stream for a final status in `protocol` (empty: nothing), as the kubelet's
 * v4WriteStatusFunc (v4 and v5: the Status JSON) and v1WriteStatusFunc (older: the error text, nothing on success).
 */
export function errorStreamBody(protocol: string, status: V1StatusBody): string {
  if (protocolVersion(protocol) >= 4) return JSON.stringify(status);
  return status.status === 'Success' ? '' : (status.message ?? 'error');
}

/** Port-forward channel opener: the port as uint16 little-endian. */
export function portPrefix(port: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(port, 0);
  return b;
}

/** Ports from `port=` / `ports=` query values (repeated or comma-separated); invalid → a reason. */
export function parsePorts(values: string[]): { ok: true; ports: number[] } | { ok: false; reason: string } {
  const ports: number[] = [];
  for (const v of values.flatMap((x) => x.split(','))) {
    const s = v.trim();
    if (s === '') continue;
    const n = Number(s);
    if (!/^\d+$/.test(s) || n < 1 || n > 65535) return { ok: false, reason: `invalid port: ${JSON.stringify(s)}` };
    ports.push(n);
  }
  return { ok: true, ports };
}
