/**
 * The kubelet port (10250, TLS): the auth filter in front of /pods, /runningpods/, /healthz, /configz, /containerLogs/,
 * the tRPC console API at /trpc, socket.io at /socket.io, and WebSocket /exec, /attach, /portForward proxied
 * to the runtime's CRI streaming server. Malformed request targets are 400 and oversized bodies 413 before
 * anything else runs; the connection limits are in limits.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createServer, type Server as HttpsServer } from 'node:https';
import type { HealthReport, KubeletApi } from '@nodelet/core/kubelet';
import type { Logger } from '@nodelet/core/util';
import { createStreamHub } from '../streams/hub.ts';
import { lazySocketServer, type LazySocketServer } from '../streams/lazy-socket-server.ts';
import type { TrpcContext } from '../trpc/trpc.ts';
import { createRequestGuard, type Authorizer, type BearerAuthenticator, type GuardOptions, type UserInfo } from './auth.ts';
import { listen, rejectTarget, methodNotAllowed, notFound, parseRequestTarget, sendJson, sendText, serverCloser } from './http-util.ts';
import { applyLimits, bodyWithin, DEFAULT_HTTP_LIMITS, limitServerOptions, MAX_HEADER_BYTES, MAX_ROUTE_BODY_BYTES, MAX_TRPC_BODY_BYTES, payloadTooLarge, type HttpLimits } from './limits.ts';
import { handleContainerLogs } from './routes/container-logs.ts';
import { handleHealthz } from './routes/healthz.ts';
import { handleMetricsProbes, METRICS_PROBES_PATH } from './routes/metrics-probes.ts';
import { sendManagedPods, sendPodList } from './routes/pods.ts';
import { handleStats, isStatsPath } from './routes/stats.ts';
import { CADVISOR_API_PREFIX, handleCadvisorApi } from './routes/cadvisor-api.ts';
import type { CriStreams } from './routes/cri-streams.ts';
import { rejectUpgrade } from './routes/proxy-upgrade.ts';
import { handleStreamUpgrade, isStreamPath } from './routes/stream-routes.ts';
import { SOCKET_PATH } from '../streams/types.ts';
import type { FlightRecorderApi } from '../recorder/types.ts';
import type { CertificatesStatus } from '../certificate/managers.ts';

export interface KubeletServerOptions {
  kubelet: KubeletApi;
  logger: Logger;
  authorizer: Authorizer;
  /** --authentication-token-webhook: bearer tokens via TokenReview. */
  tokens?: BearerAuthenticator;
  nodeName: string;
  anonymousAuth: boolean;
  /** Without cert/key (serverTLSBootstrap before the first serving certificate) handshakes are refused until setCertificate. */
  tls: { cert?: string | undefined; key?: string | undefined; clientCAs: string[] };
  /** Health behind /healthz (default kubelet.healthz(); the agent adds its shutdown check). */
  health?: () => HealthReport;
  /** CRI streaming (exec / attach / port-forward); without it those paths answer 501. */
  cri?: CriStreams;
  /** The console token (auth/console-token.ts): a bearer token for the console's user. */
  consoleToken?: GuardOptions['consoleToken'];
  /** Connection limits (default DEFAULT_HTTP_LIMITS). */
  limits?: HttpLimits;
  /** GET /configz: the running KubeletConfiguration (config/configz.ts); 404 without it. */
  configz?: () => unknown;
  /** The flight recorder (recorder.* over tRPC, `nodelet:recorder` over socket.io); absent when off. */
  recorder?: FlightRecorderApi;
  /** The certificate managers' state (tRPC certificates.status) and their metrics (appended to /metrics). */
  certificates?: { status: () => CertificatesStatus; metricsText: () => Promise<string> };
}

export interface KubeletServer {
  server: HttpsServer;
  sockets: LazySocketServer;
  listen(port: number, host: string): Promise<number>;
  /** Stop accepting new connections (existing ones finish). */
  stopAccepting(): void;
  closeStreams(): Promise<void>;
  close(graceMs?: number): Promise<void>;
  /**
   * A rotated serving certificate: new handshakes get it, open connections (exec, logs follow) keep theirs.
   * Without one (an expired serving certificate with no successor) new handshakes are refused again.
   */
  setCertificate(cert: string | undefined, key: string | undefined): void;
}

/** The kubelet's GetCertificate error while serverTLSBootstrap has no serving certificate yet. */
export const NO_SERVING_CERTIFICATE = 'no serving certificate available for the kubelet';

export function createKubeletServer(o: KubeletServerOptions): KubeletServer {
  const limits = o.limits ?? DEFAULT_HTTP_LIMITS;
  let hasCertificate = Boolean(o.tls.cert && o.tls.key);
  const guard = createRequestGuard({
    anonymousAuth: o.anonymousAuth,
    authorizer: o.authorizer,
    nodeName: o.nodeName,
    ...(o.tokens ? { tokens: o.tokens } : {}),
    ...(o.consoleToken ? { consoleToken: o.consoleToken } : {}),
  });
  const users = new WeakMap<IncomingMessage, UserInfo>();
  const streams = createStreamHub(o.kubelet, o.recorder); // one hub, two transports: tRPC subscriptions and socket.io
  const context = (req: IncomingMessage): TrpcContext => ({ kubelet: o.kubelet, streams, ...(o.recorder ? { recorder: o.recorder } : {}), user: users.get(req) ?? { name: 'unknown', groups: [] }, ...(o.health ? { health: o.health } : {}), ...(o.certificates ? { certificates: o.certificates.status } : {}) });
  // Loaded on the first /trpc request (trpc-handler.ts: @trpc/server, the routers and zod are RSS a console-less node never needs).
  let trpcHandler: Promise<(req: IncomingMessage, res: ServerResponse) => void> | undefined;
  const trpc = (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    (trpcHandler ??= import('./trpc-handler.ts').then((m) => m.createTrpcHandler({ context, logger: o.logger }))).then((h) => h(req, res));
  let sockets: LazySocketServer;
  const server = createServer(
    {
      ...(hasCertificate ? { cert: o.tls.cert, key: o.tls.key } : {}),
      // Clients that send a server name (SNI) are refused with the kubelet's error; the others find no certificate.
      SNICallback: (_name: string, cb: (err: Error | null) => void) => cb(hasCertificate ? null : new Error(NO_SERVING_CERTIFICATE)),
      ca: o.tls.clientCAs,
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: 'TLSv1.2',
      maxHeaderSize: MAX_HEADER_BYTES,
      ...limitServerOptions(limits),
    },
    (req, res) => {
      // Until socket.io is attached (lazy-socket-server.ts) its requests come here; engine.io's middleware guards them.
      if ((req.url ?? '').startsWith(`${SOCKET_PATH}/`) && !sockets.io) return sockets.handleRequest(req, res);
      const target = parseRequestTarget(req.url);
      if (!target.ok) return rejectTarget(res, target);
      const isTrpc = target.url.pathname === '/trpc' || target.url.pathname.startsWith('/trpc/');
      const cap = isTrpc ? MAX_TRPC_BODY_BYTES : MAX_ROUTE_BODY_BYTES;
      // tRPC reads its own body (maxBodySize); the kubelet's routes take none beyond a small cap.
      (isTrpc ? Promise.resolve(Number(req.headers['content-length'] ?? 0) <= cap) : bodyWithin(req, cap))
        .then(async (within) => {
          if (!within) return payloadTooLarge(req, res, cap);
          const g = await guard(req);
          if (!g.ok) return sendText(res, g.status, `${g.message}\n`);
          users.set(req, g.user);
          return route(req, res, target.url, o, trpc);
        })
        .catch((err: unknown) => {
          o.logger.error('request failed', { path: req.url, err: (err as Error).message });
          if (!res.headersSent) sendText(res, 500, 'Internal Server Error\n');
          else res.end();
        });
    },
  );
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((req.url ?? '').startsWith(`${SOCKET_PATH}/`)) {
      // socket.io's own upgrade listener takes it once attached (engine.io matches the raw URL); the first one is ours to hand over.
      if (!sockets.io) sockets.handleUpgrade(req, socket, head);
      return;
    }
    const reject = (status: number, message: string) => rejectUpgrade(socket, status, message, req.method === 'HEAD');
    const target = parseRequestTarget(req.url);
    if (!target.ok) return reject(400, target.message);
    const path = target.url.pathname;
    // The auth filter runs first, as in front of every kubelet path.
    const serve = async () => {
      const g = await guard(req);
      if (!g.ok) return reject(g.status, g.message);
      if (!isStreamPath(path)) return reject(404, '404 page not found');
      // The stream routes take GET (WebSocket) and POST (SPDY).
      if (req.method !== 'GET' && req.method !== 'POST') return reject(405, 'Method Not Allowed');
      if (!o.cri) return reject(501, 'streaming is not available: no CRI streaming client');
      return handleStreamUpgrade(req, socket, head, target.url, { kubelet: o.kubelet, cri: o.cri, logger: o.logger });
    };
    serve().catch((err: unknown) => {
      o.logger.error('stream upgrade failed', { path, err: (err as Error).message });
      reject(500, 'Internal Server Error');
    });
  });

  sockets = lazySocketServer(server, { hub: streams, guard, logger: o.logger });
  applyLimits(server, limits, 'secureConnection', o.logger);
  // Go's http.Server logs each failed handshake as "http: TLS handshake error from <addr>: <err>".
  server.on('tlsClientError', (_err, socket) => {
    if (!hasCertificate) o.logger.debug('http: TLS handshake error', { remote: `${socket.remoteAddress}:${socket.remotePort}`, err: NO_SERVING_CERTIFICATE });
  });
  const closer = serverCloser(server);
  return {
    server,
    sockets,
    listen: (port, host) => listen(server, port, host),
    ...closer,
    closeStreams: () => sockets.close(),
    setCertificate: (cert, key) => {
      hasCertificate = Boolean(cert && key);
      server.setSecureContext({ ...(hasCertificate ? { cert, key } : {}), ca: o.tls.clientCAs, minVersion: 'TLSv1.2' });
    },
  };
}

async function route(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  o: KubeletServerOptions,
  trpc: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<void> {
  const path = url.pathname;
  if (path === '/trpc' || path.startsWith('/trpc/')) return trpc(req, res);
  if (path === '/healthz' || path.startsWith('/healthz/')) return handleHealthz(req, res, (o.health ?? (() => o.kubelet.healthz()))(), o.logger);
  const getOnly = path === '/pods' || path === '/runningpods/' || path === '/configz' || path.startsWith('/containerLogs/') || path === METRICS_PROBES_PATH;
  if (getOnly && req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res);
  if (isStreamPath(path)) return sendText(res, 400, 'Upgrade request required: only WebSocket streams are served\n');
  if (path === '/pods') return sendManagedPods(res, o.kubelet.getPods());
  if (path === METRICS_PROBES_PATH) return handleMetricsProbes(res, o.kubelet);
  if (isStatsPath(path)) return handleStats(req, res, url, o.kubelet, o.certificates?.metricsText);
  if (path.startsWith(CADVISOR_API_PREFIX)) return handleCadvisorApi(req, res, url, o.kubelet, Date.now());
  if (path === '/runningpods/') return sendPodList(res, await o.kubelet.getRunningPods());
  if (path === '/configz' && o.configz) return sendJson(res, 200, o.configz());
  if (path.startsWith('/containerLogs/')) return handleContainerLogs(res, url, o.kubelet, o.logger);
  notFound(res);
}
