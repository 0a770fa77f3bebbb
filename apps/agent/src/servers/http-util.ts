/** Small helpers shared by the agent's HTTP servers. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export function sendText(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Go's http.NotFound text, as the kubelet answers unknown paths. */
export function notFound(res: ServerResponse): void {
  sendText(res, 404, '404 page not found\n');
}

export function methodNotAllowed(res: ServerResponse, allow = 'GET'): void {
  sendText(res, 405, 'Method Not Allowed\n', { Allow: allow });
}

export function requestUrl(req: IncomingMessage): URL {
  return new URL(req.url ?? '/', 'http://localhost');
}

/** Listens and resolves with the bound port (port 0 picks a free one). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Stop accepting now, and a `close(graceMs)` that ends idle keep-alive connections, waits for the rest, and
 * destroys whatever is still open after `graceMs`.
 */
export function serverCloser(server: Server): { stopAccepting(): void; close(graceMs?: number): Promise<void> } {
  let closed: Promise<void> | undefined;
  const stopAccepting = () => {
    if (closed) return;
    closed = server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  };
  return {
    stopAccepting,
    async close(graceMs = 2000) {
      stopAccepting();
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
    },
  };
}
