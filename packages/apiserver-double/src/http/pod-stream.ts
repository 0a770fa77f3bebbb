/**
 * pods/exec, pods/attach, pods/portforward: like the real apiserver, translate the request into the kubelet's
 * /exec/<ns>/<pod>/<container>, /attach/..., /portForward/<ns>/<pod> URL on the pod's node and proxy the client's
 * WebSocket upgrade there with the apiserver's kubelet client certificate. Only upgrade requests are served.
 */
import https from 'node:https';
import http, { type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Registry } from '../store/registry.ts';
import { errors, statusBody } from '../status.ts';
import { kubeletNodeUrl, pickContainer, type KubeletClientConfig } from './pod-log.ts';

/** Upgrade requests being served through the normal handler pipeline (socket + head the proxy takes over). */
const upgrades = new WeakMap<IncomingMessage, { socket: Duplex; head: Buffer }>();

export function isUpgrade(req: IncomingMessage): boolean {
  return upgrades.has(req);
}

/** Route upgrade requests through `handler` (auth, authz, dispatch); its error answers go straight to the socket. */
export function serveUpgrades(server: http.Server, handler: http.RequestListener): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrades.set(req, { socket, head });
    const res = new http.ServerResponse(req);
    res.assignSocket(socket as Socket);
    res.shouldKeepAlive = false;
    res.on('finish', () => {
      if (upgrades.has(req)) socket.end();
    });
    handler(req, res);
  });
}

const flag = (q: URLSearchParams, k: string) => ['1', 'true'].includes((q.get(k) ?? '').toLowerCase());

export function kubeletStreamLocation(reg: Registry, cfg: KubeletClientConfig, sub: string, ns: string, name: string, url: URL): URL {
  const pod = reg.get(reg.resource('', 'pods'), ns, name);
  const loc = kubeletNodeUrl(reg, cfg, pod);
  const q = url.searchParams;
  if (sub === 'portforward') {
    loc.pathname = `/portForward/${encodeURIComponent(ns)}/${encodeURIComponent(name)}`;
    for (const p of [...q.getAll('ports'), ...q.getAll('port')].flatMap((v) => v.split(','))) if (p) loc.searchParams.append('port', p);
    return loc;
  }
  const container = pickContainer(pod, q.get('container'));
  loc.pathname = `/${sub}/${encodeURIComponent(ns)}/${encodeURIComponent(name)}/${encodeURIComponent(container)}`;
  for (const k of ['stdin', 'stdout', 'stderr', 'tty']) if (flag(q, k)) loc.searchParams.set(k, '1');
  if (sub === 'exec') {
    const cmd = q.getAll('command');
    if (cmd.length === 0) throw errors.badRequest('you must specify at least 1 command');
    for (const c of cmd) loc.searchParams.append('command', c);
  }
  return loc;
}

/** Proxy the upgrade to the kubelet; a refused upgrade comes back as a Status with the kubelet's text. */
export function proxyPodStream(cfg: KubeletClientConfig, loc: URL, req: IncomingMessage): void {
  const up = upgrades.get(req);
  if (!up) throw errors.badRequest('Upgrade request required');
  upgrades.delete(req);
  const { socket, head } = up;
  const headers: Record<string, string> = { connection: 'Upgrade', upgrade: String(req.headers.upgrade ?? 'websocket') };
  for (const h of ['sec-websocket-key', 'sec-websocket-version', 'sec-websocket-protocol']) {
    const v = req.headers[h];
    if (v !== undefined) headers[h] = Array.isArray(v) ? v.join(', ') : v;
  }
  const out = https.request(loc, { method: 'GET', headers, cert: cfg.clientCert.cert, key: cfg.clientCert.key, ca: cfg.ca, rejectUnauthorized: cfg.ca !== undefined });
  out.on('upgrade', (res, upstream, upHead) => {
    const lines = [`HTTP/1.1 101 ${res.statusMessage ?? 'Switching Protocols'}`];
    for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]!}: ${res.rawHeaders[i + 1]!}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (upHead.length > 0) socket.write(upHead);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket).pipe(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
  });
  out.on('response', (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const code = res.statusCode ?? 502;
      const text = Buffer.concat(chunks).toString('utf8').trim() || `kubelet answered ${code}`;
      endWithStatus(socket, statusBody(code, code === 404 ? 'NotFound' : 'InternalError', text));
    });
  });
  out.on('error', (err) => endWithStatus(socket, statusBody(500, 'InternalError', `error dialing backend: ${err.message}`)));
  out.end();
}

function endWithStatus(socket: Duplex, status: { code?: number }): void {
  const body = JSON.stringify(status);
  const code = status.code ?? 500;
  socket.end(`HTTP/1.1 ${code} ${http.STATUS_CODES[code] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
