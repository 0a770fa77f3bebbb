/** The read-only port (10255): no auth, GET only, /pods, /stats/summary, /metrics[/cadvisor|/resource|/probes] and /healthz; everything else 404. Never mutates. */
import { createServer, type Server } from 'node:http';
import type { KubeletApi } from '@nodelet/core/kubelet/types.ts';
import type { Logger } from '@nodelet/core/util/logger.ts';
import { listen, methodNotAllowed, notFound, requestUrl, serverCloser } from './http-util.ts';
import { handleHealthz } from './routes/healthz.ts';
import { sendPodList } from './routes/pods.ts';
import { handleMetricsProbes, METRICS_PROBES_PATH } from './routes/metrics-probes.ts';
import { handleStats, isStatsPath } from './routes/stats.ts';

export interface PlainServer {
  server: Server;
  listen(port: number, host: string): Promise<number>;
  stopAccepting(): void;
  close(graceMs?: number): Promise<void>;
}

export function createReadOnlyServer(kubelet: KubeletApi, logger: Logger, health = () => kubelet.healthz()): PlainServer {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res);
    const path = requestUrl(req).pathname;
    if (path === '/pods') return sendPodList(res, kubelet.getPods());
    if (path === METRICS_PROBES_PATH) {
      handleMetricsProbes(res, kubelet).catch((err: unknown) => {
        logger.error('metrics/probes failed', { err: String(err) });
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    if (isStatsPath(path)) {
      handleStats(req, res, requestUrl(req), kubelet).catch((err: unknown) => {
        logger.error('stats request failed', { path, err: String(err) });
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    if (path === '/healthz' || path.startsWith('/healthz/')) return handleHealthz(req, res, health(), logger);
    notFound(res);
  });
  return wrapPlain(server);
}

/** The healthz port (10248): /healthz only. */
export function createHealthzServer(kubelet: KubeletApi, logger: Logger, health = () => kubelet.healthz()): PlainServer {
  const server = createServer((req, res) => {
    const path = requestUrl(req).pathname;
    if (path === '/healthz' || path.startsWith('/healthz/')) return handleHealthz(req, res, health(), logger);
    notFound(res);
  });
  return wrapPlain(server);
}

function wrapPlain(server: Server): PlainServer {
  server.keepAliveTimeout = 90_000;
  const closer = serverCloser(server);
  return { server, listen: (port, host) => listen(server, port, host), ...closer };
}
