/**
 * The registry client's fetch over node:http / node:https. The WHATWG fetch refuses the "bad ports" of the
 * Fetch standard (6000, 6665-6669, 5060, 10080, ...) with "bad port", where containerd (Go's net/http) pulls from
 * any port; this one has no such list. What the registry client needs: GET / POST with headers and a string
 * body, redirects followed (at most 20; 303 becomes GET; Authorization dropped when the redirect leaves the
 * origin, as fetch does), an AbortSignal, and a web Response. A failed request rejects as fetch does:
 * TypeError("fetch failed") with the socket error as its cause.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

const MAX_REDIRECTS = 20;
const NULL_BODY = new Set([101, 204, 205, 304]);

export const registryFetch: typeof globalThis.fetch = async (input, init = {}) => {
  let url = new URL(input instanceof Request ? input.url : String(input));
  let method = (init.method ?? 'GET').toUpperCase();
  let body = typeof init.body === 'string' ? init.body : undefined;
  const headers = new Headers(init.headers);
  const signal = init.signal ?? undefined;
  for (let hop = 0; ; hop++) {
    const res = await send(url, method, headers, body, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (init.redirect !== 'manual' && [301, 302, 303, 307, 308].includes(status) && location !== undefined) {
      res.resume();
      if (hop >= MAX_REDIRECTS) throw Object.assign(new TypeError('fetch failed'), { cause: new Error('redirect count exceeded') });
      const next = new URL(location, url);
      if (next.origin !== url.origin) headers.delete('authorization');
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
      }
      url = next;
      continue;
    }
    return toResponse(res, status);
  }
};

function send(url: URL, method: string, headers: Headers, body: string | undefined, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const fail = (err: unknown) => reject(Object.assign(new TypeError('fetch failed'), { cause: err }));
    if (signal?.aborted) return reject(signal.reason);
    const request = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
    if (!request) return fail(new Error(`unsupported protocol ${url.protocol}`));
    const h: Record<string, string> = {};
    headers.forEach((v, k) => (h[k] = v));
    if (body !== undefined) h['content-length'] = String(Buffer.byteLength(body));
    // A connection per request (no pool): a pooled socket the registry closed would fail the next request.
    const req = request(url, { method, headers: h, agent: false });
    const onAbort = () => req.destroy(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('response', (res) => {
      res.once('close', () => signal?.removeEventListener('abort', onAbort));
      resolve(res);
    });
    req.once('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(signal.reason);
      else fail(err);
    });
    req.end(body);
  });
}

function toResponse(res: IncomingMessage, status: number): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  const nullBody = NULL_BODY.has(status);
  if (nullBody) res.resume();
  const stream = nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
  return new Response(stream, { status, statusText: res.statusMessage ?? '', headers });
}
