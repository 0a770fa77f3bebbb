/** Small helpers shared by the agent's HTTP servers. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export function sendText(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
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

export type RequestTarget = { ok: true; url: URL } | { ok: false; message: string; redirect?: string };

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The request target as a URL, checked as Go's server checks it before any handler runs: origin-form ("/path?q")
 * or absolute-form ("http://host/path"), and a path whose percent-escapes decode (else 400 with the reason).
 * A path with "." or ".." segments (also as %2e, or between backslashes) is not served: `redirect` is its
 * canonical form (Go's ServeMux answers such paths with a 301 to it). Handlers and the authorizer therefore see
 * one path, the one the client sent. A leading "//" stays part of the path (it is not a host).
 */
export function parseRequestTarget(raw: string | undefined): RequestTarget {
  const target = raw ?? '/';
  let url: URL;
  try {
    if (target.startsWith('/')) url = new URL(`http://localhost${target}`);
    else if (/^https?:\/\//i.test(target)) url = new URL(target);
    else return { ok: false, message: 'invalid request target: must start with "/"' };
  } catch {
    return { ok: false, message: 'invalid request target' };
  }
  if (decodeSegments(url.pathname) === undefined) return { ok: false, message: 'invalid URL escape in the request path' };
  const rawPath = (target.startsWith('/') ? target : target.replace(/^https?:\/\/[^/?#]*/i, '')).split(/[?#]/)[0] ?? '';
  if (rawPath.split(/[\\/]/).some((s) => DOT_SEGMENT.test(s))) {
    return { ok: false, message: 'the request path has "." or ".." segments', redirect: `${url.pathname}${url.search}` };
  }
  return { ok: true, url };
}

/** Answers a request target parseRequestTarget refused: 301 to the canonical path, or 400 with the reason. */
export function rejectTarget(res: ServerResponse, t: { message: string; redirect?: string }): void {
  if (t.redirect === undefined) return badRequest(res, t.message);
  sendText(res, 301, `Moved Permanently: ${t.redirect}\n`, { Location: t.redirect });
}

/** The request's URL (after parseRequestTarget accepted it; '/' if it would not have, which authorizes as "proxy"). */
export function requestUrl(req: IncomingMessage): URL {
  const t = parseRequestTarget(req.url);
  return t.ok ? t.url : new URL('http://localhost/');
}

/** Path segments after `skip` leading ones, percent-decoded; undefined for a malformed escape. */
export function decodeSegments(path: string, skip = 0): string[] | undefined {
  try {
    return path.split('/').slice(1 + skip).map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

/** A runtime's error text for a response: absolute host paths replaced by "<path>" (the log keeps the original). */
export function redactPaths(message: string): string {
  return message.replace(/(^|[\s"'`(=:,\[])\/[^\s"'`),:\]]+/g, '$1<path>');
}

/** 400 with the reason (a malformed request target). */
export function badRequest(res: ServerResponse, message: string): void {
  sendText(res, 400, `${message}\n`);
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

export { serverCloser } from '@nodelet/core/util';
