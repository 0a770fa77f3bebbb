/**
 * pods/exec, pods/attach, pods/portforward: like the real apiserver, translate the request into the kubelet's
 * /exec/<ns>/<pod>/<container>, /attach/..., /portForward/<ns>/<pod> URL on the pod's node and proxy the client's
 * upgrade (WebSocket or SPDY/3.1) there with the apiserver's kubelet client certificate; port-forward offered as
 * SPDY tunnelled in a WebSocket (kubectl ≥ 1.31) is bridged to SPDY (pod-stream-tunnel.ts). Only upgrade requests
 * are served.
 */
import https from 'node:https';
import http, { type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Registry } from '../store/registry.ts';
import { errors, statusBody } from '../status.ts';
import { relayUpgrade, upgradeHeaders } from '@nodelet/core/util';
import { kubeletNodeUrl, pickContainer, type KubeletClientConfig } from './pod-log.ts';
import { tunnelPortForward, wantsSpdyTunnel } from './pod-stream-tunnel.ts';

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

const KUBELET_STREAM_PARAMS = [['stdin', 'input'], ['stdout', 'output'], ['stderr', 'error'], ['tty', 'tty']] as const;
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
  // As kube-apiserver's streamParams (pkg/registry/core/pod/strategy.go): PodExecOptions' stdin / stdout / stderr
  // reach the kubelet as its own names input / output / error (api.ExecStdinParam ...), each "1".
  for (const [k, kubeletName] of KUBELET_STREAM_PARAMS) if (flag(q, k)) loc.searchParams.set(kubeletName, '1');
  if (sub === 'exec') {
    const cmd = q.getAll('command');
    if (cmd.length === 0) throw errors.badRequest('you must specify at least 1 command');
    for (const c of cmd) loc.searchParams.append('command', c);
  }
  return loc;
}

/** Proxy the upgrade (WebSocket or SPDY/3.1) to the kubelet; a refused upgrade comes back as a Status with the kubelet's text. */
export function proxyPodStream(cfg: KubeletClientConfig, loc: URL, req: IncomingMessage): void {
  const up = upgrades.get(req);
  if (!up) throw errors.badRequest('Upgrade request required');
  upgrades.delete(req);
  const { socket, head } = up;
  const refused = (code: number, text: string) =>
    endWithStatus(socket, statusBody(code, code === 404 ? 'NotFound' : code === 403 ? 'Forbidden' : 'InternalError', text));
  if (loc.pathname.startsWith('/portForward/') && wantsSpdyTunnel(req)) return tunnelPortForward(cfg, loc, req, up, refused);
  const tls = { cert: cfg.clientCert.cert, key: cfg.clientCert.key, ca: cfg.ca, rejectUnauthorized: cfg.ca !== undefined };
  const out = https.request(loc, { method: req.method ?? 'GET', headers: upgradeHeaders(req), ...tls });
  relayUpgrade(out, socket, head, (res, body) => refused(res.statusCode ?? 502, body.toString('utf8').trim() || `kubelet answered ${res.statusCode ?? 502}`));
  out.on('error', (err) => refused(500, `error dialing backend: ${err.message}`));
  out.end();
}

function endWithStatus(socket: Duplex, status: { code?: number }): void {
  const body = JSON.stringify(status);
  const code = status.code ?? 500;
  socket.end(`HTTP/1.1 ${code} ${http.STATUS_CODES[code] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
