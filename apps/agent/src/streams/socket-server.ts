/**
 * socket.io on the kubelet port at /socket.io: every engine.io request (handshake, polling, websocket upgrade)
 * passes the same guard as the HTTP routes; each socket gets `nodelet:hello`, then every matching bus event
 * as `nodelet:event`. `nodelet:subscribe` replaces the socket's filter and replays matching recent events.
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { Server } from 'socket.io';
import { eventMatches, type EventFilter } from '@nodelet/core/events/types.ts';
import type { KubeletApi } from '@nodelet/core/kubelet/types.ts';
import type { Logger } from '@nodelet/core/util/logger.ts';
import type { RequestGuard } from '../servers/auth.ts';
import { rejectUpgrade } from '../servers/routes/proxy-upgrade.ts';
import { eventFilterSchema } from '../trpc/schemas.ts';
import { metricsStream } from './metrics-stream.ts';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents, type SocketData } from './types.ts';

export type NodeletSocketServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface SocketServerHandle {
  io: NodeletSocketServer;
  connections(): number;
  /** Disconnects every client. Does not close the underlying https server. */
  close(): Promise<void>;
}

export function attachSocketServer(
  server: HttpsServer,
  deps: { kubelet: KubeletApi; guard: RequestGuard; logger: Logger },
): SocketServerHandle {
  const io: NodeletSocketServer = new Server(server, { path: SOCKET_PATH, serveClient: false, destroyUpgrade: false }); // other upgrades: kubelet-server
  const users = new WeakMap<IncomingMessage, string>();
  io.engine.use((req: IncomingMessage, res: ServerResponse, next: (err?: Error) => void) => {
    void Promise.resolve(deps.guard(req)).then((g) => {
      const upgrade = !(res instanceof ServerResponse);
      if (!g.ok) {
        // A websocket upgrade: engine.io's stand-in response would only reset the connection; answer 401/403.
        if (upgrade) return rejectUpgrade(req.socket, g.status, g.message, req.method === 'HEAD');
        res.writeHead(g.status, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`${g.message}\n`);
        return;
      }
      // engine.io and ws refuse a HEAD upgrade with a body (invalid for HEAD): refuse it here without one.
      if (upgrade && req.method === 'HEAD') return rejectUpgrade(req.socket, 405, 'Method Not Allowed', true);
      users.set(req, g.user.name);
      next();
    }, (err: unknown) => next(err instanceof Error ? err : new Error(String(err))));
  });
  io.on('connection', (socket) => {
    socket.data.user = users.get(socket.request) ?? 'unknown';
    socket.data.filter = {};
    deps.logger.debug('socket connected', { id: socket.id, user: socket.data.user });
    const bus = deps.kubelet.events;
    const unsubscribe = bus.subscribe((e) => {
      if (eventMatches(e, socket.data.filter)) socket.emit('nodelet:event', e);
    });
    socket.on('nodelet:subscribe', (raw: unknown) => {
      const parsed = eventFilterSchema.safeParse(raw ?? {});
      if (!parsed.success) return;
      const filter: EventFilter = parsed.data;
      socket.data.filter = filter;
      for (const e of bus.recent(filter, 200)) socket.emit('nodelet:event', e);
    });
    let releaseEveryRun: (() => void) | undefined;
    socket.on('nodelet:probes', (raw: unknown) => {
      const everyRun = typeof raw === 'object' && raw !== null && (raw as { everyRun?: unknown }).everyRun === true;
      if (everyRun && !releaseEveryRun) releaseEveryRun = deps.kubelet.probes?.requestEveryRun();
      if (!everyRun && releaseEveryRun) {
        releaseEveryRun();
        releaseEveryRun = undefined;
      }
    });
    const metrics = metricsStream(deps.kubelet, (m) => socket.emit('nodelet:metrics', m));
    let stopPressure: (() => void) | undefined;
    socket.on('nodelet:pressure:watch', (raw: unknown) => {
      const watch = typeof raw === 'object' && raw !== null && (raw as { watch?: unknown }).watch === true;
      const api = deps.kubelet.eviction;
      if (watch && !stopPressure && api) {
        stopPressure = api.watch((s) => socket.emit('nodelet:pressure', s));
        socket.emit('nodelet:pressure', api.state());
      } else if (!watch && stopPressure) {
        stopPressure();
        stopPressure = undefined;
      }
    });
    socket.on('nodelet:metrics:subscribe', (raw: unknown) => metrics.replace(raw));
    socket.on('disconnect', () => {
      metrics.close();
      unsubscribe();
      releaseEveryRun?.();
      stopPressure?.();
    });
    const newest = bus.recent(undefined, 1)[0];
    socket.emit('nodelet:hello', { node: deps.kubelet.node(), seq: newest?.seq ?? 0 });
  });
  return {
    io,
    connections: () => io.engine.clientsCount,
    close: () =>
      new Promise<void>((resolve) => {
        io.disconnectSockets(true);
        io.engine.close();
        resolve();
      }),
  };
}
