/** Test clients over node:https with an optional client certificate: plain requests, fetch, EventSource. */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

export interface TlsClientOptions {
  ca?: string;
  cert?: string;
  key?: string;
}

export interface SimpleResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

export function doRequest(url: string, tls: TlsClientOptions = {}, method = 'GET', body?: string, headers: Record<string, string> = {}): Promise<SimpleResponse> {
  const u = new URL(url);
  return rawRequest(u.origin, `${u.pathname}${u.search}`, tls, method, body, headers);
}

/** Like doRequest, with the request target sent exactly as given (no URL normalization of "..", "\\" and the like). */
export function rawRequest(origin: string, target: string, tls: TlsClientOptions = {}, method = 'GET', body?: string, headers: Record<string, string> = {}): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(origin);
    const opts = { host: u.hostname, port: u.port, path: target, method, headers, ...tls, agent: false };
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(opts, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends a WebSocket upgrade request (GET, Upgrade: websocket) and resolves with the answer's status: 101 when the
 * server switched protocols (the socket is then closed), else the error status and body.
 */
export function upgradeRequest(url: string, tls: TlsClientOptions = {}, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const upgrade = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers };
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, { headers: upgrade, ...tls, agent: false });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve({ status: 101, body: '' });
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a streaming GET; resolves with the response once headers arrive. */
export function openStream(url: string, tls: TlsClientOptions): Promise<{ res: IncomingMessage; destroy(): void }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(url), { ...tls, agent: false }, (res) => resolve({ res, destroy: () => req.destroy() }));
    req.on('error', reject);
    req.end();
  });
}

/** A fetch for @trpc/client's links that presents a client certificate. */
export function tlsFetch(tls: TlsClientOptions): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? init.body : undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = httpsRequest(new URL(url), { method: init?.method ?? 'GET', headers: Object.fromEntries(headers), ...tls, agent: false }, (res) => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve(new Response(Readable.toWeb(res) as ReadableStream, { status: res.statusCode ?? 0, headers: h }));
      });
      init?.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
      req.on('error', reject);
      req.end(body);
    });
  }) as typeof fetch;
}

interface SseMessage {
  type: string;
  data: string;
  lastEventId: string;
}

/** A minimal EventSource over https with a client certificate (Node 20 has none built in). No reconnects. */
export function tlsEventSource(tls: TlsClientOptions) {
  return class TlsEventSource {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSED = 2;
    readonly CONNECTING = 0;
    readonly OPEN = 1;
    readonly CLOSED = 2;
    readyState = 0;
    private listeners = new Map<string, Set<(e: SseMessage) => void>>();
    private req;

    constructor(url: string | URL) {
      this.req = httpsRequest(new URL(url), { headers: { accept: 'text/event-stream' }, ...tls, agent: false }, (res) => {
        this.readyState = 1;
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let idx;
          while ((idx = buf.indexOf('\n\n')) >= 0) {
            this.dispatch(buf.slice(0, idx));
            buf = buf.slice(idx + 2);
          }
        });
        res.on('end', () => this.fail());
      });
      this.req.on('error', () => this.fail());
      this.req.end();
    }

    addEventListener(type: string, fn: (e: SseMessage) => void): void {
      const set = this.listeners.get(type) ?? new Set();
      set.add(fn);
      this.listeners.set(type, set);
    }

    removeEventListener(type: string, fn: (e: SseMessage) => void): void {
      this.listeners.get(type)?.delete(fn);
    }

    close(): void {
      this.readyState = 2;
      this.req.destroy();
    }

    private fail(): void {
      if (this.readyState === 2) return;
      this.readyState = 2;
      for (const fn of this.listeners.get('error') ?? []) fn({ type: 'error', data: '', lastEventId: '' });
    }

    private dispatch(block: string): void {
      let type = 'message';
      let id = '';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) type = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
        else if (line.startsWith('id: ')) id = line.slice(4);
      }
      if (data.length === 0 && type === 'message') return;
      for (const fn of this.listeners.get(type) ?? []) fn({ type, data: data.join('\n'), lastEventId: id });
    }
  };
}
