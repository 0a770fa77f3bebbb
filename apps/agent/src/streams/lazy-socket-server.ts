/**
 * socket.io on the kubelet port, attached on the first /socket.io request or upgrade: socket.io, engine.io, ws and the
 * zod schemas of its events are code a node nobody opens a console on never needs (trpc-handler.ts likewise). Once
 * attached, engine.io's own listeners take every later request; the first one is handed to it here (a listener added
 * while an event is emitted does not see that event). The guard runs in engine.io's middleware (socket-server.ts),
 * for the first request as for the others.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import type { Logger } from '@nodelet/core/util';
import type { RequestGuard } from '../servers/auth.ts';
import type { StreamHub } from './hub.ts';
import type { NodeletSocketServer, SocketServerHandle } from './socket-server.ts';

export interface LazySocketServer {
  /** The socket.io server once attached. */
  readonly io: NodeletSocketServer | undefined;
  /** Attaches (once) and resolves with the handle. */
  ready(): Promise<SocketServerHandle>;
  /** A /socket.io request that reached the kubelet routes: socket.io is not attached yet. */
  handleRequest(req: IncomingMessage, res: ServerResponse): void;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  connections(): number;
  close(): Promise<void>;
}

export function lazySocketServer(server: HttpsServer, deps: { hub: StreamHub; guard: RequestGuard; logger: Logger }): LazySocketServer {
  let handle: SocketServerHandle | undefined;
  let attaching: Promise<SocketServerHandle> | undefined;
  const ready = (): Promise<SocketServerHandle> =>
    (attaching ??= import('./socket-server.ts').then((m) => {
      handle = m.attachSocketServer(server, deps);
      return handle;
    }));
  const failed = (err: unknown) => deps.logger.error('socket.io could not start', { err: String(err) });
  return {
    get io() {
      return handle?.io;
    },
    ready,
    handleRequest(req, res) {
      ready().then((h) => h.io.engine.handleRequest(req, res), (err: unknown) => {
        failed(err);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Internal Server Error\n');
      });
    },
    handleUpgrade(req, socket, head) {
      ready().then((h) => h.io.engine.handleUpgrade(req, socket, head), (err: unknown) => {
        failed(err);
        socket.destroy();
      });
    },
    connections: () => handle?.connections() ?? 0,
    close: async () => {
      await handle?.close();
    },
  };
}
