// Closing an HTTP(S) server without waiting forever for sockets the HTTP layer does not track.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Stop accepting now, and a `close(graceMs)` that ends idle keep-alive connections, waits for the rest, and
 * destroys whatever is still open after `graceMs`.
 */
export function serverCloser(server: Server): { stopAccepting(): void; close(graceMs?: number): Promise<void> } {
  let closed: Promise<void> | undefined;
  // Every accepted socket, also those still in the TLS handshake or that never sent a request: the HTTP layer's
  // closeAllConnections() does not know them, and server.close() would wait for them.
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  const stopAccepting = () => {
    if (closed) return;
    closed = server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  };
  return {
    stopAccepting,
    async close(graceMs = 2000) {
      stopAccepting();
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      }, graceMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
    },
  };
}
