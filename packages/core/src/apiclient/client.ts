/**
 * The API client over @kubernetes/client-node 1.4's KubeConfig (kubeconfig parsing, client certificate or
 * bearer token, CA): JSON over node:https with keep-alive, every request (watches included) through the
 * kubeAPIQPS / kubeAPIBurst token bucket, as client-go's rest client.
 */
import http from 'node:http';
import https from 'node:https';
import type { Clock } from '../util/clock.ts';
import { loadKubeConfig } from './kubeconfig-info.ts';
import { BlockingTokenBucket } from './rate-limiter.ts';
import type { ApiClient, ApiRequest, ApiResult, WatchEnd, WatchEvent } from './types.ts';

export interface ApiClientOptions {
  clock: Clock;
  /** kubeAPIQPS (default 50) and kubeAPIBurst (default 100). */
  qps?: number;
  burst?: number;
  userAgent?: string;
}

export type LoadResult = { ok: true; client: ApiClient } | { ok: false; reason: string };

/** Loads a kubeconfig file and builds a client; a clear message naming what is wrong otherwise. */
export async function createApiClientFromKubeconfig(path: string, opts: ApiClientOptions): Promise<LoadResult> {
  const loaded = await loadKubeConfig(path);
  if (!loaded.ok) return loaded;
  const kc = loaded.kc;
  const cluster = kc.getCurrentCluster();
  if (!cluster) return { ok: false, reason: `invalid kubeconfig ${path}: no current cluster (current-context "${kc.getCurrentContext()}")` };
  if (!cluster.server) return { ok: false, reason: `invalid kubeconfig ${path}: cluster "${cluster.name}" has no server` };
  let url: URL;
  try {
    url = new URL(cluster.server);
  } catch {
    return { ok: false, reason: `invalid kubeconfig ${path}: cluster server "${cluster.server}" is not a URL` };
  }
  if (!kc.getCurrentUser()) return { ok: false, reason: `invalid kubeconfig ${path}: no user for the current context` };
  const reqOpts: https.RequestOptions = {};
  try {
    await kc.applyToHTTPSOptions(reqOpts);
  } catch (err) {
    return { ok: false, reason: `invalid kubeconfig ${path}: ${(err as Error).message}` };
  }
  return { ok: true, client: new HttpApiClient(url, reqOpts, opts) };
}

class HttpApiClient implements ApiClient {
  readonly server: string;
  private agent: http.Agent;
  private readonly agentOpts: https.AgentOptions;
  private readonly limiter: BlockingTokenBucket;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly url: URL,
    reqOpts: https.RequestOptions,
    opts: ApiClientOptions,
  ) {
    this.server = url.toString().replace(/\/$/, '');
    const tls = url.protocol === 'https:';
    this.agentOpts = { keepAlive: true, ca: reqOpts.ca, cert: reqOpts.cert, key: reqOpts.key, ...(reqOpts.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}) };
    this.agent = tls ? new https.Agent(this.agentOpts) : new http.Agent({ keepAlive: true });
    this.limiter = new BlockingTokenBucket(opts.clock, opts.qps ?? 50, opts.burst ?? 100);
    const h: Record<string, string> = { 'User-Agent': opts.userAgent ?? 'nodelet/v1.34.0 (linux) kubernetes/nodelet', Accept: 'application/json' };
    for (const [k, v] of Object.entries(reqOpts.headers ?? {})) if (typeof v === 'string') h[k] = v;
    if (reqOpts.auth) h.Authorization = `Basic ${Buffer.from(reqOpts.auth).toString('base64')}`;
    this.headers = h;
  }

  async request<T>(req: ApiRequest): Promise<ApiResult<T>> {
    try {
      await this.limiter.wait(req.signal);
    } catch {
      return { ok: false, status: 0, reason: 'Aborted', message: 'request aborted' };
    }
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    return new Promise((resolve) => {
      const r = this.send(req, body, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => resolve(connectionError(err)));
        res.on('end', () => resolve(toResult<T>(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      });
      r.on('error', (err) => resolve(connectionError(err)));
      r.end(body);
    });
  }

  async watch<T>(path: string, query: ApiRequest['query'], onEvent: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<WatchEnd> {
    try {
      await this.limiter.wait(signal);
    } catch {
      return { ok: true, reason: 'Aborted' };
    }
    return new Promise((resolve) => {
      let done = false;
      const finish = (e: WatchEnd) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        r.destroy();
        resolve(e);
      };
      const onAbort = () => finish({ ok: true, reason: 'Aborted' });
      const r = this.send({ method: 'GET', path, query: { ...query, watch: 'true' } }, undefined, (res) => {
        if ((res.statusCode ?? 0) >= 300) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const fail = toResult(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'));
            finish(fail.ok ? { ok: true, reason: 'Closed' } : fail);
          });
          return;
        }
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl).trim();
            buf = buf.slice(nl + 1);
            if (!line) continue;
            const ev = parseWatchLine<T>(line);
            if (!ev) continue;
            if (ev.type === 'ERROR') return finish(statusFailure(ev.object, 500));
            onEvent(ev);
          }
        });
        res.on('end', () => finish({ ok: true, reason: 'Closed' }));
        res.on('error', () => finish({ ok: true, reason: 'Closed' }));
      });
      r.on('error', (err) => finish(connectionError(err)));
      signal.addEventListener('abort', onAbort, { once: true });
      r.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }

  /**
   * Client certificate rotation: later requests use the new pair, and the open connections (watches included)
   * are closed so that they reconnect with it, as client-go's rotating transport does (CloseAll).
   */
  setClientCertificate(certPem: string, keyPem: string): void {
    if (!(this.agent instanceof https.Agent)) return;
    const old = this.agent;
    this.agent = new https.Agent({ ...this.agentOpts, cert: certPem, key: keyPem });
    old.destroy();
  }

  private send(req: ApiRequest, body: string | undefined, onResponse: (res: http.IncomingMessage) => void): http.ClientRequest {
    const u = new URL(this.server + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    const headers: Record<string, string | number> = { ...this.headers };
    if (body !== undefined) {
      headers['Content-Type'] = req.contentType ?? 'application/json';
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    const mod = u.protocol === 'https:' ? https : http;
    return mod.request(u, { method: req.method, headers, agent: this.agent, ...(req.signal ? { signal: req.signal } : {}) }, onResponse);
  }
}

function parseWatchLine<T>(line: string): WatchEvent<T> | undefined {
  try {
    return JSON.parse(line) as WatchEvent<T>;
  } catch {
    return undefined;
  }
}

function connectionError(err: Error): { ok: false; status: 0; reason: string; message: string } {
  const aborted = err.name === 'AbortError';
  return { ok: false, status: 0, reason: aborted ? 'Aborted' : 'ConnectionError', message: err.message };
}

function statusFailure(obj: unknown, fallback: number): { ok: false; status: number; reason: string; message: string } {
  const s = (obj ?? {}) as { code?: number; reason?: string; message?: string };
  return { ok: false, status: s.code ?? fallback, reason: s.reason || 'InternalError', message: s.message ?? '' };
}

function toResult<T>(status: number, text: string): ApiResult<T> {
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (status >= 200 && status < 300) return { ok: true, status, body: parsed as T };
  if (parsed && typeof parsed === 'object' && (parsed as { kind?: string }).kind === 'Status') return statusFailure(parsed, status);
  return { ok: false, status, reason: status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'InternalError', message: text.slice(0, 500) };
}
