/**
 * Browser-facing request checks of the console (pure; tested): the Host allow-list against DNS rebinding, the
 * Origin / Sec-Fetch-Site checks against cross-origin pages, and the anti-CSRF rule for state-changing requests.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

export type Check = { ok: true } | { ok: false; status: 400 | 403 | 415; reason: string };

const OK: Check = { ok: true };
const WILDCARD = new Set(['0.0.0.0', '::', '']);

/** Host names the console answers to: the bind address, loopback names, the node name, NODELET_CONSOLE_HOSTS. */
export function allowedHosts(bind: string, nodeName: string | undefined, extra: string | undefined): Set<string> {
  const hosts = new Set(['127.0.0.1', 'localhost', '::1']);
  if (!WILDCARD.has(bind)) hosts.add(bind.toLowerCase());
  if (nodeName) hosts.add(nodeName.toLowerCase());
  for (const h of (extra ?? '').split(',').map((s) => s.trim().toLowerCase())) if (h) hosts.add(h);
  return hosts;
}

/** `host[:port]` → the host name (brackets of an IPv6 literal removed), lower-case; undefined if malformed. */
export function hostName(hostHeader: string): string | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(hostHeader);
  if (!m?.[1]) return undefined;
  const h = m[1].startsWith('[') ? m[1].slice(1, -1) : m[1];
  if (m[1].startsWith('[') && isIP(h) !== 6) return undefined;
  return h.toLowerCase();
}

/**
 * A Host header naming this console. A request for another name reached us through a name that resolves to us
 * (DNS rebinding): refused, so a page on that name can never read the console's answers. When the console is bound
 * to a wildcard address, any IP literal is accepted too (rebinding needs a DNS name).
 */
export function checkHost(headers: IncomingHttpHeaders, hosts: ReadonlySet<string>, bind: string): Check {
  const raw = headers.host;
  if (!raw) return { ok: false, status: 400, reason: 'missing Host header' };
  const name = hostName(raw);
  if (!name) return { ok: false, status: 400, reason: 'malformed Host header' };
  if (hosts.has(name) || (WILDCARD.has(bind) && isIP(name) !== 0)) return OK;
  return { ok: false, status: 403, reason: `host "${name.slice(0, 100)}" is not one of this console's names (add it to NODELET_CONSOLE_HOSTS)` };
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host === (host ?? '').toLowerCase();
  } catch {
    return false;
  }
}

export const hasBearer = (headers: IncomingHttpHeaders) => /^Bearer\s+\S+\s*$/i.test(headers.authorization ?? '');

/**
 * Every request to the console's API: a browser's `Origin` (when sent) must be the console's own origin, and
 * `Sec-Fetch-Site` (when sent) must be same-origin or none (typed into the address bar).
 */
export function checkOrigin(headers: IncomingHttpHeaders): Check {
  const origin = headers.origin;
  if (origin !== undefined && !sameOrigin(origin, headers.host)) {
    return { ok: false, status: 403, reason: `cross-origin request from ${origin.slice(0, 100)} refused` };
  }
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return { ok: false, status: 403, reason: `cross-site request (Sec-Fetch-Site: ${site.slice(0, 20)}) refused` };
  }
  return OK;
}

/**
 * State-changing browser requests (POST to sign-in/out, socket.io polling, tRPC mutations): provably from a page of
 * this origin — Sec-Fetch-Site same-origin, or (older browsers) no Sec-Fetch-Site and a matching Origin. A client
 * sending `Authorization: Bearer` is not a browser form or fetch without CORS, so it passes.
 */
export function checkSameOriginWrite(headers: IncomingHttpHeaders): Check {
  const o = checkOrigin(headers);
  if (!o.ok) return o;
  if (hasBearer(headers)) return OK;
  const site = headers['sec-fetch-site'];
  if (site === 'same-origin' || (site === undefined && headers.origin !== undefined)) return OK;
  return { ok: false, status: 403, reason: 'a state-changing request must come from a console page (same-origin) or carry Authorization: Bearer' };
}

export const CSRF_HEADER = 'x-nodelet-csrf';

/** A tRPC mutation: JSON only (no form or text/plain "simple" request) plus the console's own header. */
export function checkMutation(headers: IncomingHttpHeaders): Check {
  const w = checkSameOriginWrite(headers);
  if (!w.ok) return w;
  const type = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return { ok: false, status: 415, reason: 'tRPC mutations must be sent as application/json' };
  if (headers[CSRF_HEADER] !== '1' && !hasBearer(headers)) {
    return { ok: false, status: 403, reason: `tRPC mutations need the ${CSRF_HEADER}: 1 header (sent by the console's own client)` };
  }
  return OK;
}

/**
 * WebSocket upgrades: the Origin must be the console's own; only a non-browser client presenting a bearer token
 * may omit it.
 */
export function checkUpgrade(headers: IncomingHttpHeaders): Check {
  if (headers.origin === undefined) {
    return hasBearer(headers) ? OK : { ok: false, status: 403, reason: 'WebSocket without Origin refused (non-browser clients send Authorization: Bearer)' };
  }
  return checkOrigin(headers);
}
