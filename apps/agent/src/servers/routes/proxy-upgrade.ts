/**
 * Proxy an HTTP upgrade (WebSocket or SPDY/3.1) to a target URL, as the kubelet proxies to the CRI streaming
 * server: the client's method and upgrade headers go to the target; a 101 answer is relayed and both sockets
 * are piped; any other answer is relayed as is and the connection closed.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import { relayUpgrade, statusBlock, upgradeHeaders } from '@nodelet/core/util';

export function proxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target: URL, tls: RequestOptions = {}): void {
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const out = send(target, { method: req.method ?? 'GET', headers: upgradeHeaders(req), ...tls });
  relayUpgrade(out, socket, head, (res, body) => {
    socket.end(Buffer.concat([Buffer.from(statusBlock(res, res.statusCode ?? 502, body.length)), body]));
  });
  out.on('error', (err) => rejectUpgrade(socket, 502, `error dialing backend: ${err.message}`));
  out.end();
}

/** Answer an upgrade request with a plain-text error and close (no body when answering a HEAD request). */
export function rejectUpgrade(socket: Duplex, status: number, message: string, bodyless = false): void {
  if (!socket.writable) return;
  const body = bodyless ? '' : `${message}\n`;
  socket.end(`HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Error'}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
