/** Test helpers for code talking to the double over real sockets. */
import type { IncomingMessage } from 'node:http';
import type { ApiServerDouble } from '../server.ts';

/** Poll until cond() is truthy (network round trips, not timing, are what we wait for); fails after 10 s. */
export async function waitFor<T>(cond: () => T | undefined | false | null, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = cond();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The Status body carried by a @kubernetes/client-node ApiException. */
export function statusOf(err: unknown): { code: number; reason?: string; message: string } {
  const e = err as { code?: number; body?: unknown };
  const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
  return { code: e.code ?? body?.code, reason: body?.reason, message: body?.message };
}

/** Count of recorded requests matching a predicate. */
export function countRequests(d: ApiServerDouble, pred: (r: ApiServerDouble['requests'][number]) => boolean): number {
  return d.requests.filter(pred).length;
}

/** A raw HTTPS request to the double as the admin (bearer token), trusting the double's CA. */
export async function rawRequest(
  d: ApiServerDouble,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; text: string }> {
  const { request } = d.url.startsWith('https') ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, d.url),
      { method, ca: d.ca || undefined, headers: { authorization: `Bearer ${d.adminToken}`, 'content-type': 'application/json', ...headers } },
      (res: IncomingMessage) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, json, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
