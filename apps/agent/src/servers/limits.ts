/**
 * Per-listener connection limits: a cap on concurrent connections (more are closed at once), a header timeout
 * (the TLS handshake and the first request's headers must arrive within it; Node's headersTimeout covers later
 * requests on a keep-alive connection), a keep-alive idle timeout, and request body caps. Streams are never cut:
 * upgraded connections (exec, attach, port-forward, socket.io websocket) leave the HTTP parser, and a response
 * that streams (log follow, SSE) is not idle; only a connection between requests is.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '@nodelet/core/util';
import { HTTP_DEFAULTS } from '../config/http-config.ts';
import { sendText } from './http-util.ts';

export interface HttpLimits {
  maxConnections: number;
  headerTimeoutMs: number;
  idleTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxConnections: HTTP_DEFAULTS.httpMaxConnections,
  headerTimeoutMs: HTTP_DEFAULTS.httpHeaderTimeoutMs,
  idleTimeoutMs: HTTP_DEFAULTS.httpIdleTimeoutMs,
};

/** Bodies on the kubelet's own routes (none of them reads one). */
export const MAX_ROUTE_BODY_BYTES = 8 * 1024;
/** tRPC request bodies (batched mutations and inputs). */
export const MAX_TRPC_BODY_BYTES = 1024 * 1024;
/**
 * Request line + headers on 10250 (the kubelet's MaxHeaderBytes is 1 MiB; with --http-max-connections connections
 * each holding a header for up to the header timeout, 1 MiB would let 512 clients pin 512 MiB): 64 KiB still takes
 * long exec command lines and large bearer tokens. 10255/10248 keep Node's 16 KiB.
 */
export const MAX_HEADER_BYTES = 64 * 1024;
/** Receiving a whole request (headers and body) may take at most this long, or the header timeout if longer. */
const REQUEST_TIMEOUT_MS = 60_000;

/** Options for createServer: how often Node checks header/request timeouts, and the TLS handshake timeout. */
export function limitServerOptions(l: HttpLimits): { connectionsCheckingInterval: number; handshakeTimeout: number } {
  return { connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(l.headerTimeoutMs / 2))), handshakeTimeout: l.headerTimeoutMs };
}

/**
 * Applies the limits to a server. `connectionEvent` is where a connection can first speak HTTP: 'connection' for
 * plain HTTP, 'secureConnection' after the TLS handshake (bounded by handshakeTimeout). Call after every other
 * 'request'/'upgrade' listener is attached (socket.io replaces the request listeners it finds; a server without
 * an 'upgrade' listener gets none).
 */
export function applyLimits(server: Server, l: HttpLimits, connectionEvent: 'connection' | 'secureConnection', logger: Logger): void {
  server.maxConnections = l.maxConnections;
  server.headersTimeout = l.headerTimeoutMs;
  server.requestTimeout = Math.max(REQUEST_TIMEOUT_MS, l.headerTimeoutMs);
  server.keepAliveTimeout = l.idleTimeoutMs;
  server.timeout = 0;
  let dropped = 0;
  server.on('drop', () => {
    if (dropped++ % 1000 === 0) logger.warn('connection limit reached: closing new connections', { maxConnections: l.maxConnections, dropped });
  });
  // Node times out headers only once a request has begun; a connection that stays silent is closed here.
  const pending = new Map<Socket, NodeJS.Timeout>();
  server.on(connectionEvent, (socket: Socket) => {
    const timer = setTimeout(() => {
      pending.delete(socket);
      socket.destroy();
    }, l.headerTimeoutMs);
    timer.unref();
    pending.set(socket, timer);
    socket.once('close', () => {
      clearTimeout(timer);
      pending.delete(socket);
    });
  });
  const started = (req: IncomingMessage) => {
    const timer = pending.get(req.socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    pending.delete(req.socket);
  };
  server.on('request', started);
  // Only where upgrades are served: a listener makes Node hand every Upgrade request to 'upgrade' instead of 'request'.
  if (server.listenerCount('upgrade') > 0) server.on('upgrade', started);
}

/** Reads (and discards) a request body up to `cap` bytes; false when it is larger. */
export function bodyWithin(req: IncomingMessage, cap: number): Promise<boolean> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > cap) return Promise.resolve(false);
  if (req.complete && req.readableLength === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    let n = 0;
    const done = (ok: boolean) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onEnd);
      if (!ok) req.pause();
      resolve(ok);
    };
    const onData = (chunk: Buffer) => {
      n += chunk.length;
      if (n > cap) done(false);
    };
    const onEnd = () => done(true);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onEnd);
  });
}

/** 413, and the connection is closed (the rest of the body is never read). */
export function payloadTooLarge(req: IncomingMessage, res: ServerResponse, cap: number): void {
  res.once('finish', () => req.socket.destroySoon());
  sendText(res, 413, `request body too large: at most ${cap} bytes\n`, { Connection: 'close' });
}
