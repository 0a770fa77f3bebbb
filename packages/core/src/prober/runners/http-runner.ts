/**
 * The httpGet probe over node:http/https, as the kubelet's http prober: User-Agent `kube-probe/<ver>`
 * (hooks: `kube-lifecycle/<ver>`), `Accept: *\/*` unless set (an empty Accept removes it), a Host header sets
 * the request host, no keep-alive, TLS unverified. 200 ≤ code < 300 succeeds; redirects to the same host
 * are followed (at most 10), a redirect elsewhere (or any final 3xx) is a success with a warning
 * ("Probe terminated redirects"); ≥ 400 fails with "HTTP probe failed with statuscode: N"; transport errors
 * fail with Go's text. The whole exchange is bounded by timeoutS.
 */
import http from 'node:http';
import https from 'node:https';
import type { Clock } from '../../util/clock.ts';
import type { HttpProbeRequest, RunOutcome } from '../types.ts';
import { goDialError, joinHostPort, limitOutput, MAX_OUTPUT_BYTES } from './go-text.ts';

export const MAX_REDIRECTS = 10;

export interface HttpRunnerOptions {
  clock: Clock;
  /** `<major>.<minor>` in the User-Agent (default '1.34'). */
  kubeletVersion?: string;
}

interface Hop {
  status: number;
  location?: string;
  body: Buffer;
}

function buildHeaders(req: HttpProbeRequest, version: string): Record<string, string | string[]> {
  const out = new Map<string, { name: string; values: string[] }>();
  for (const h of req.headers) {
    const k = h.name.toLowerCase();
    const cur = out.get(k) ?? { name: h.name, values: [] };
    cur.values.push(h.value);
    out.set(k, cur);
  }
  if (!out.has('user-agent')) out.set('user-agent', { name: 'User-Agent', values: [`kube-${req.purpose ?? 'probe'}/${version}`] });
  const accept = out.get('accept');
  if (!accept) out.set('accept', { name: 'Accept', values: ['*/*'] });
  else if (accept.values.every((v) => v === '')) out.delete('accept');
  out.set('connection', { name: 'Connection', values: ['close'] });
  const headers: Record<string, string | string[]> = {};
  for (const { name, values } of out.values()) headers[name] = values.length === 1 ? (values[0] ?? '') : values;
  return headers;
}

function oneHop(url: URL, headers: Record<string, string | string[]>, signal: AbortSignal): Promise<Hop> {
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const r = mod.request(url, { method: 'GET', headers, agent: false, signal, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < MAX_OUTPUT_BYTES) chunks.push(c);
        size += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end();
  });
}

function portOf(u: URL): number {
  return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
}

/** Follows same-host redirects; returns the final hop (a non-local redirect is returned as is). */
async function follow(start: URL, headers: Record<string, string | string[]>, signal: AbortSignal, current: { url: URL }): Promise<Hop> {
  for (let redirects = 0; ; redirects++) {
    const hop = await oneHop(current.url, headers, signal);
    if (hop.status < 300 || hop.status >= 400 || !hop.location || hop.status === 304) return hop;
    const next = new URL(hop.location, current.url);
    if (next.hostname !== start.hostname) return hop;
    if (redirects + 1 >= MAX_REDIRECTS) {
      current.url = next;
      throw Object.assign(new Error(`stopped after ${MAX_REDIRECTS} redirects`), { code: 'REDIRECTS' });
    }
    current.url = next;
  }
}

export function createHttpRunner(opts: HttpRunnerOptions): (req: HttpProbeRequest) => Promise<RunOutcome> {
  const version = opts.kubeletVersion ?? '1.34';
  return async (req) => {
    const start = new URL(`${req.scheme}://${joinHostPort(req.host, req.port)}${req.path || '/'}`);
    const headers = buildHeaders(req, version);
    const ac = new AbortController();
    const current = { url: start };
    let timedOut = false;
    const timer = opts.clock.setTimeout(() => {
      timedOut = true;
      ac.abort();
    }, req.timeoutS * 1000);
    try {
      const hop = await follow(start, headers, ac.signal, current);
      if (hop.status >= 200 && hop.status < 300) return { status: 'success', output: limitOutput(hop.body), httpStatus: hop.status };
      if (hop.status >= 300 && hop.status < 400) {
        return { status: 'warning', output: `Probe terminated redirects, Response body: ${limitOutput(hop.body)}`, httpStatus: hop.status };
      }
      return { status: 'failure', output: `HTTP probe failed with statuscode: ${hop.status}`, httpStatus: hop.status };
    } catch (err) {
      const u = current.url;
      const prefix = `Get "${u.href}": `;
      if (timedOut) return { status: 'failure', output: `${prefix}context deadline exceeded (Client.Timeout exceeded while awaiting headers)` };
      const code = (err as { code?: string }).code;
      if (code === 'REDIRECTS') return { status: 'failure', output: `${prefix}${(err as Error).message}` };
      return { status: 'failure', output: prefix + goDialError(err, u.hostname.replace(/^\[|\]$/g, ''), portOf(u)) };
    } finally {
      timer.cancel();
    }
  };
}
