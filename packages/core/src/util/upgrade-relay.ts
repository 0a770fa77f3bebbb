/**
 * Relaying an HTTP upgrade (WebSocket or SPDY/3.1) through a proxy hop, as the kubelet does towards the CRI
 * streaming server and the API server towards the kubelet: the client's method and upgrade headers go upstream;
 * a 101 answer is written back verbatim and both sockets are piped; any other answer is handed to `refused`.
 * Shared by the agent (apps/agent) and the API-server double.
 */
import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';

/** Headers that carry the upgrade negotiation (repeated X-Stream-Protocol-Version lines stay repeated). */
const FORWARDED = new Set(['upgrade', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-protocol', 'sec-websocket-extensions', 'x-stream-protocol-version']);

export function upgradeHeaders(req: IncomingMessage): OutgoingHttpHeaders {
  const out: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    if (FORWARDED.has(name)) (out[name] ??= []).push(req.rawHeaders[i + 1]!);
  }
  const headers: OutgoingHttpHeaders = { connection: 'Upgrade', upgrade: 'websocket' };
  for (const [k, v] of Object.entries(out)) headers[k] = v.length === 1 ? v[0]! : v;
  return headers;
}

/** The status line and headers of `res` (for relaying an answer as is). */
export function statusBlock(res: IncomingMessage, status: number, contentLength?: number): string {
  const lines = [`HTTP/1.1 ${status} ${res.statusMessage ?? ''}`];
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i]!;
    if (contentLength !== undefined && /^(content-length|transfer-encoding|connection)$/i.test(name)) continue;
    lines.push(`${name}: ${res.rawHeaders[i + 1]!}`);
  }
  if (contentLength !== undefined) lines.push(`Content-Length: ${contentLength}`, 'Connection: close');
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Wire `out` (the upstream upgrade request, not yet ended) to the client's `socket`. */
export function relayUpgrade(
  out: ClientRequest,
  socket: Duplex,
  head: Buffer,
  refused: (res: IncomingMessage, body: Buffer) => void,
): void {
  socket.on('error', () => out.destroy());
  out.on('upgrade', (res, upstream, upHead) => {
    socket.write(statusBlock(res, 101));
    if (upHead.length > 0) socket.write(upHead);
    if (head.length > 0) upstream.write(head);
    splice(upstream, socket);
  });
  out.on('response', (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (d: Buffer) => chunks.push(d));
    res.on('end', () => refused(res, Buffer.concat(chunks)));
  });
}

/** Pipe two byte streams into each other; an error or close on either side ends both. */
export function splice(a: Duplex, b: Duplex): void {
  a.pipe(b).pipe(a);
  for (const [x, y] of [[a, b], [b, a]] as const) {
    x.on('error', () => y.destroy());
    x.on('close', () => y.destroy());
  }
}
