/**
 * socket.io on the kubelet port at /socket.io: every engine.io request (handshake, polling, websocket upgrade)
 * passes the same guard as the HTTP routes; each socket gets `nodelet:hello`, then every matching bus event
 * as `nodelet:event`. `nodelet:subscribe` replaces the socket's filter and replays matching recent events.
 * A transport adapter only: every feed comes from the event hub (hub.ts), as for the tRPC subscriptions.
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import { Server, type Socket } from 'socket.io';
import type { NodeletEvent } from '@nodelet/core/events';
import type { Logger } from '@nodelet/core/util';
import type { RequestGuard } from '../servers/auth.ts';
import { rejectUpgrade } from '../servers/routes/proxy-upgrade.ts';
import { eventFilterSchema } from '../trpc/schemas.ts';
import { recorderFollowSchema } from '../trpc/recorder-router.ts';
import type { Release, StreamHub } from './hub.ts';
import { metricsStream } from './metrics-stream.ts';
import { SOCKET_PATH, type ClientToServerEvents, type ServerToClientEvents, type SocketData } from './types.ts';

export type NodeletSocketServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type NodeletSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Recent events replayed after `nodelet:subscribe` (the client deduplicates by seq). */
const REPLAY_ON_SUBSCRIBE = 200;

export interface SocketServerHandle {
  io: NodeletSocketServer;
  connections(): number;
  /** Disconnects every client. Does not close the underlying https server. */
  close(): Promise<void>;
}

export function attachSocketServer(
  server: HttpsServer,
  deps: { hub: StreamHub; guard: RequestGuard; logger: Logger },
): SocketServerHandle {
  const io: NodeletSocketServer = new Server(server, { path: SOCKET_PATH, serveClient: false, destroyUpgrade: false }); // other upgrades: kubelet-server
  const users = new WeakMap<IncomingMessage, string>();
  const everyEvent = unfilteredFeed(io, deps.hub);
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
    deps.logger.debug('socket connected', { id: socket.id, user: socket.data.user });
    const { hub } = deps;
    const emitEvent = (e: NodeletEvent) => socket.emit('nodelet:event', e);
    let stopEvents = everyEvent.join(socket);
    socket.on('nodelet:subscribe', (raw: unknown) => {
      const parsed = eventFilterSchema.safeParse(raw ?? {});
      if (!parsed.success) return;
      stopEvents();
      stopEvents = hub.events(parsed.data, emitEvent, REPLAY_ON_SUBSCRIBE);
    });
    let releaseEveryRun: Release | undefined;
    socket.on('nodelet:probes', (raw: unknown) => {
      const everyRun = typeof raw === 'object' && raw !== null && (raw as { everyRun?: unknown }).everyRun === true;
      if (everyRun && !releaseEveryRun) releaseEveryRun = hub.probeRuns();
      if (!everyRun && releaseEveryRun) {
        releaseEveryRun();
        releaseEveryRun = undefined;
      }
    });
    let stopRecords: Release | undefined;
    socket.on('nodelet:recorder:follow', (raw: unknown) => {
      stopRecords?.();
      stopRecords = undefined;
      if (raw === null) return;
      const parsed = recorderFollowSchema.safeParse(raw ?? {});
      if (!parsed.success) return void socket.emit('nodelet:recorder:error', { message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      stopRecords = hub.records?.(parsed.data, (e) => socket.emit('nodelet:recorder', e));
      if (!stopRecords) socket.emit('nodelet:recorder:error', { message: 'the flight recorder is off on this node' });
    });
    const metrics = metricsStream(hub, (m) => socket.emit('nodelet:metrics', m));
    socket.on('nodelet:metrics:subscribe', (raw: unknown) => metrics.replace(raw));
    socket.on('disconnect', () => {
      metrics.close();
      stopEvents();
      stopRecords?.();
      releaseEveryRun?.();
    });
    socket.emit('nodelet:hello', hub.hello());
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

/** The room of sockets that take every bus event (none sent `nodelet:subscribe`). */
const EVERY_EVENT_ROOM = 'nodelet:every-event';

/**
 * The sockets that did not choose a filter share one hub feed, broadcast to their room: each event is encoded once
 * for all of them (socket.io encodes a broadcast once), not once per socket. The feed is held while the room has
 * members. A socket joins in the connection handler, in the same synchronous step as a subscription of its own
 * would start, and sees every event published from then on, as with its own.
 */
function unfilteredFeed(io: NodeletSocketServer, hub: StreamHub): { join(socket: NodeletSocket): Release } {
  let members = 0;
  let stop: Release | undefined;
  return {
    join(socket) {
      void socket.join(EVERY_EVENT_ROOM);
      if (members++ === 0) stop = hub.events({}, (e) => io.to(EVERY_EVENT_ROOM).emit('nodelet:event', e));
      let left = false;
      return () => {
        if (left) return;
        left = true;
        void socket.leave(EVERY_EVENT_ROOM);
        if (--members === 0) {
          stop?.();
          stop = undefined;
        }
      };
    },
  };
}
