/**
 * Port-forward over WebSocket as kube-apiserver ≥ 1.31 serves it to kubectl: the client offers the subprotocol
 * `SPDY/3.1+portforward.k8s.io`; the apiserver upgrades the kubelet connection to SPDY/3.1 (portforward.k8s.io)
 * and tunnels the SPDY byte stream in binary WebSocket messages, both ways, until either side closes.
 */
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { splice } from '@nodelet/core/util';
import type { KubeletClientConfig } from './pod-log.ts';

export const TUNNEL_PROTOCOL = 'SPDY/3.1+portforward.k8s.io';

export function wantsSpdyTunnel(req: IncomingMessage): boolean {
  if (String(req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return false;
  return String(req.headers['sec-websocket-protocol'] ?? '').split(',').some((p) => p.trim() === TUNNEL_PROTOCOL);
}

/** Open SPDY to the kubelet, then accept the client's WebSocket and pipe the two; a refusal goes to `refused`. */
export function tunnelPortForward(
  cfg: KubeletClientConfig,
  loc: URL,
  req: IncomingMessage,
  up: { socket: Duplex; head: Buffer },
  refused: (status: number, text: string) => void,
): void {
  const tls = { cert: cfg.clientCert.cert, key: cfg.clientCert.key, ca: cfg.ca, rejectUnauthorized: cfg.ca !== undefined };
  const headers = { connection: 'Upgrade', upgrade: 'SPDY/3.1', 'x-stream-protocol-version': 'portforward.k8s.io' };
  const out = https.request(loc, { method: 'POST', headers, ...tls });
  up.socket.on('error', () => out.destroy());
  out.on('upgrade', (_res, upstream: Duplex, upHead: Buffer) => {
    // `ws` refuses subprotocol names with '/' or '+': take the header out and answer it ourselves.
    delete req.headers['sec-websocket-protocol'];
    const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
    wss.on('headers', (lines: string[]) => lines.push(`Sec-WebSocket-Protocol: ${TUNNEL_PROTOCOL}`));
    wss.handleUpgrade(req, up.socket, up.head, (ws) => {
      const tunnel = createWebSocketStream(ws);
      if (upHead.length > 0) tunnel.write(upHead);
      splice(upstream, tunnel);
      upstream.on('close', () => ws.terminate());
    });
  });
  out.on('response', (res) => {
    let body = '';
    res.on('data', (d: Buffer) => (body += d.toString()));
    res.on('end', () => refused(res.statusCode ?? 502, body.trim() || `kubelet answered ${res.statusCode ?? 502}`));
  });
  out.on('error', (err) => refused(500, `error dialing backend: ${err.message}`));
  out.end();
}
