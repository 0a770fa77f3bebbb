/**
 * Proxy an HTTP upgrade (WebSocket) to a target URL, as the kubelet proxies to the CRI streaming server: the
 * client's upgrade headers go to the target; a 101 answer is relayed and both sockets are piped; any other
 * answer is relayed as is and the connection closed.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';


export function proxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target: URL, tls: RequestOptions = {}): void {
  const headers: Record<string, string> = { connection: 'Upgrade', upgrade: String(req.headers.upgrade ?? 'websocket') };
  for (const h of ['sec-websocket-key', 'sec-websocket-version', 'sec-websocket-protocol']) {
    const v = req.headers[h];
    if (v !== undefined) headers[h] = Array.isArray(v) ? v.join(', ') : v;
  }
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const out = send(target, { method: 'GET', headers, ...tls });
  socket.on('error', () => out.destroy());
  out.on('upgrade', (res, upstream, upHead) => {
    socket.write(statusBlock(res, 101));
    if (upHead.length > 0) socket.write(upHead);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket).pipe(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
  });
  out.on('response', (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (d: Buffer) => chunks.push(d));
    res.on('end', () => {
      const body = Buffer.concat(chunks);
      socket.end(Buffer.concat([Buffer.from(statusBlock(res, res.statusCode ?? 502, body.length)), body]));
    });
  });
  out.on('error', (err) => rejectUpgrade(socket, 502, `error dialing backend: ${err.message}`));
  out.end();
}

function statusBlock(res: IncomingMessage, status: number, contentLength?: number): string {
  const lines = [`HTTP/1.1 ${status} ${res.statusMessage ?? ''}`];
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i]!;
    if (contentLength !== undefined && /^(content-length|transfer-encoding|connection)$/i.test(name)) continue;
    lines.push(`${name}: ${res.rawHeaders[i + 1]!}`);
  }
  if (contentLength !== undefined) lines.push(`Content-Length: ${contentLength}`, 'Connection: close');
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Answer an upgrade request with a plain-text error and close. */
export function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  if (!socket.writable) return;
  const body = `${message}\n`;
  socket.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Error'}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

