/**
 * The read-only port (10255): no auth, GET only, /pods, /stats/summary, /metrics[/cadvisor|/resource|/probes] and
 * /healthz; everything else 404. Never mutates. The healthz port (10248): /healthz only. Both answer a malformed
 * request target with 400 and a request body beyond a small cap with 413, and apply the connection limits.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { KubeletApi } from '@nodelet/core/kubelet';
import type { Logger } from '@nodelet/core/util';
import { listen, rejectTarget, methodNotAllowed, notFound, parseRequestTarget, sendText, serverCloser } from './http-util.ts';
import { applyLimits, bodyWithin, DEFAULT_HTTP_LIMITS, limitServerOptions, MAX_ROUTE_BODY_BYTES, payloadTooLarge, type HttpLimits } from './limits.ts';
import { handleHealthz } from './routes/healthz.ts';
import { sendManagedPods } from './routes/pods.ts';
import { handleMetricsProbes, METRICS_PROBES_PATH } from './routes/metrics-probes.ts';
import { handleStats, isStatsPath } from './routes/stats.ts';

export interface PlainServer {
  server: Server;
  listen(port: number, host: string): Promise<number>;
  stopAccepting(): void;
  close(graceMs?: number): Promise<void>;
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

/** `extraKubeletMetrics`: the agent's own series on /metrics, as on 10250 (the kubelet serves one legacy registry on both). */
export function createReadOnlyServer(kubelet: KubeletApi, logger: Logger, health = () => kubelet.healthz(), limits = DEFAULT_HTTP_LIMITS, extraKubeletMetrics?: () => Promise<string>): PlainServer {
  return plainServer(logger, limits, async (req, res, url) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res);
    const path = url.pathname;
    if (path === '/pods') return sendManagedPods(res, kubelet.getPods());
    if (path === METRICS_PROBES_PATH) return handleMetricsProbes(res, kubelet);
    if (isStatsPath(path)) return handleStats(req, res, url, kubelet, extraKubeletMetrics);
    if (path === '/healthz' || path.startsWith('/healthz/')) return handleHealthz(req, res, health(), logger);
    notFound(res);
  });
}

/** The healthz port (10248): /healthz only. */
export function createHealthzServer(kubelet: KubeletApi, logger: Logger, health = () => kubelet.healthz(), limits = DEFAULT_HTTP_LIMITS): PlainServer {
  return plainServer(logger, limits, (req, res, url) => {
    const path = url.pathname;
    if (path === '/healthz' || path.startsWith('/healthz/')) return handleHealthz(req, res, health(), logger);
    notFound(res);
  });
}

function plainServer(logger: Logger, limits: HttpLimits, route: Route): PlainServer {
  const server = createServer({ ...limitServerOptions(limits) }, (req, res) => {
    const target = parseRequestTarget(req.url);
    if (!target.ok) return rejectTarget(res, target);
    bodyWithin(req, MAX_ROUTE_BODY_BYTES)
      .then((within) => (within ? route(req, res, target.url) : payloadTooLarge(req, res, MAX_ROUTE_BODY_BYTES)))
      .catch((err: unknown) => {
        logger.error('request failed', { path: target.url.pathname, err: (err as Error).message });
        if (!res.headersSent) sendText(res, 500, 'Internal Server Error\n');
        else res.end();
      });
  });
  applyLimits(server, limits, 'connection', logger);
  const closer = serverCloser(server);
  return { server, listen: (port, host) => listen(server, port, host), ...closer };
}
