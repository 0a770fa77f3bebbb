/**
 * The runtime's CRI streaming server (as containerd's): Exec / Attach / PortForward RPCs register a request
 * under a one-time token and answer `http://127.0.0.1:<port>/<kind>/<token>`; the client (the kubelet's proxy)
 * upgrades that URL within the token's lifetime and the session runs on it: a WebSocket (channel protocol,
 * channel-protocol.ts) or, as the kubelet's own streaming server, SPDY/3.1 (`Upgrade: SPDY/3.1` with the
 * protocols offered in X-Stream-Protocol-Version; spdy-session.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../util/logger.ts';
import { pickProtocol, PORT_FORWARD_PROTOCOLS, REMOTE_COMMAND_PROTOCOLS } from './channel-protocol.ts';

/** SPDY stream protocols, best first (the kubelet's: no v5 over SPDY). */
export const SPDY_REMOTE_COMMAND_PROTOCOLS = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'] as const;
export const SPDY_PORT_FORWARD_PROTOCOLS = ['portforward.k8s.io'] as const;

export type StreamKind = 'exec' | 'attach' | 'portforward';

export interface ExecStreamRequest {
  kind: 'exec' | 'attach';
  containerId: string;
  cmd: string[];
  tty: boolean;
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
}

export interface PortForwardStreamRequest {
  kind: 'portforward';
  podSandboxId: string;
  ports: number[];
}

export type StreamRequest = ExecStreamRequest | PortForwardStreamRequest;

/** Runs a session once the WebSocket is open; `url` is the upgrade request's URL (port-forward reads ports). */
export interface StreamHandlers {
  exec(ws: WebSocket, req: ExecStreamRequest): void;
  portForward(ws: WebSocket, req: PortForwardStreamRequest, url: URL): void;
  /** A SPDY/3.1 session on the upgraded socket, `protocol` as negotiated ('' when the client offered none). */
  spdy?(socket: Duplex, req: StreamRequest, protocol: string): void;
}

export interface StreamingServer {
  readonly baseUrl: string;
  /** Register a request; returns the one-time URL. */
  register(req: StreamRequest): string;
  close(): Promise<void>;
}

/** containerd's default stream idle / token lifetime is minutes; one minute is plenty for a proxy to connect. */
export const TOKEN_TTL_MS = 60_000;

export async function startStreamingServer(
  handlers: StreamHandlers,
  logger: Logger,
  opts: { host?: string; ttlMs?: number; now?: () => number } = {},
): Promise<StreamingServer> {
  const now = opts.now ?? Date.now;
  const ttl = opts.ttlMs ?? TOKEN_TTL_MS;
  const pending = new Map<string, { req: StreamRequest; expires: number }>();
  const open = new Set<WebSocket>();
  const spdySockets = new Set<Duplex>();
  const server: Server = createServer((_req, res) => {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('a WebSocket upgrade is required\n');
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const m = /^\/(exec|attach|portforward)\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    const token = m?.[2] ?? '';
    const entry = pending.get(token);
    pending.delete(token);
    if (!m || !entry || entry.expires < now() || entry.req.kind !== m[1]) {
      return reject(socket, 404, 'stream token not found or expired');
    }
    if (String(req.headers.upgrade ?? '').toLowerCase() === 'spdy/3.1') {
      const r = entry.req;
      if (!handlers.spdy) return reject(socket, 400, 'SPDY is not supported');
      const negotiated = negotiateSpdy(req, r.kind === 'portforward' ? SPDY_PORT_FORWARD_PROTOCOLS : SPDY_REMOTE_COMMAND_PROTOCOLS);
      if (!negotiated.ok) return reject(socket, 403, negotiated.reason);
      const p = negotiated.protocol;
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n${p ? `X-Stream-Protocol-Version: ${p}\r\n` : ''}\r\n`);
      if (head.length > 0) socket.unshift(head);
      spdySockets.add(socket);
      socket.once('close', () => spdySockets.delete(socket));
      logger.debug('stream opened', { kind: r.kind, protocol: `SPDY/3.1 ${p}` });
      return handlers.spdy(socket, r, p);
    }
    const ours = entry.req.kind === 'portforward' ? PORT_FORWARD_PROTOCOLS : REMOTE_COMMAND_PROTOCOLS;
    const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (pickProtocol(offered, ours) === false) return reject(socket, 400, `unsupported subprotocols: ${offered.join(', ')}`);
    const wsForProtocols = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      handleProtocols: (set) => pickProtocol(set, ours),
    });
    wsForProtocols.handleUpgrade(req, socket, head, (ws) => {
      const r = entry.req;
      open.add(ws);
      ws.once('close', () => open.delete(ws));
      logger.debug('stream opened', { kind: r.kind, protocol: ws.protocol });
      if (r.kind === 'portforward') handlers.portForward(ws, r, url);
      else handlers.exec(ws, r);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const baseUrl = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  logger.info('streaming server listening', { url: baseUrl });
  return {
    baseUrl,
    register(req) {
      for (const [t, e] of pending) if (e.expires < now()) pending.delete(t);
      const token = randomBytes(16).toString('base64url');
      pending.set(token, { req, expires: now() + ttl });
      return `${baseUrl}/${req.kind}/${token}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of open) ws.terminate();
        for (const sock of spdySockets) sock.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The client's X-Stream-Protocol-Version values (repeated headers or comma lists), first match in ITS order. */
export function negotiateSpdy(req: IncomingMessage, ours: readonly string[]): { ok: true; protocol: string } | { ok: false; reason: string } {
  const offered: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() !== 'x-stream-protocol-version') continue;
    offered.push(...req.rawHeaders[i + 1]!.split(',').map((v) => v.trim()).filter(Boolean));
  }
  if (offered.length === 0) return { ok: true, protocol: '' };
  const hit = offered.find((p) => ours.includes(p));
  if (hit) return { ok: true, protocol: hit };
  return { ok: false, reason: `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server supports [${ours.join(' ')}]` };
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found' };

function reject(socket: Duplex, status: number, message: string): void {
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${message}\n`);
}
