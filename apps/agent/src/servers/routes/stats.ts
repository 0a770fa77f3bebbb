/**
 * The kubelet's read paths backed by StatsApi: GET /stats/summary[?only_cpu_and_memory=true], /metrics,
 * /metrics/cadvisor and /metrics/resource. Served on 10250 (behind the auth filter) and on the read-only port.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeletApi, MetricsPath } from '@nodelet/core/kubelet';
import { methodNotAllowed, notFound, sendJson, sendText } from '../http-util.ts';

export const STATS_SUMMARY_PATH = '/stats/summary';
export const METRICS_PATHS: Record<string, MetricsPath> = { '/metrics': 'kubelet', '/metrics/cadvisor': 'cadvisor', '/metrics/resource': 'resource' };

/** True when this module serves the path. */
export function isStatsPath(path: string): boolean {
  return path === STATS_SUMMARY_PATH || path === `${STATS_SUMMARY_PATH}/` || path in METRICS_PATHS;
}

/**
 * promhttp's gzipAccepted (the kubelet serves /metrics/cadvisor through promhttp.HandlerFor): some
 * comma-separated part of Accept-Encoding is `gzip` or starts with `gzip;` (a q value is not read, as there).
 */
export function gzipAccepted(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((p) => {
    const part = p.trim();
    return part === 'gzip' || part.startsWith('gzip;');
  });
}

/** `extraKubeletMetrics`: the agent's own series on /metrics (the certificate managers'). */
export async function handleStats(req: IncomingMessage, res: ServerResponse, url: URL, kubelet: KubeletApi, extraKubeletMetrics?: () => Promise<string>): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res);
  const stats = kubelet.stats;
  if (!stats) return notFound(res);
  const path = url.pathname;
  const metricsPath = METRICS_PATHS[path];
  if (metricsPath) {
    if (metricsPath === 'cadvisor' && stats.cadvisorPage) {
      const page = await stats.cadvisorPage({ gzip: gzipAccepted(req.headers['accept-encoding']) });
      return sendText(res, 200, page.body, { 'Content-Type': page.contentType, 'Content-Length': String(page.body.length), ...(page.contentEncoding ? { 'Content-Encoding': page.contentEncoding } : {}) });
    }
    const { contentType, body } = await stats.metrics(metricsPath);
    const extra = metricsPath === 'kubelet' && extraKubeletMetrics ? await extraKubeletMetrics() : '';
    return sendText(res, 200, extra ? `${body.replace(/\n?$/, '\n')}${extra}` : body, { 'Content-Type': contentType });
  }
  const only = url.searchParams.get('only_cpu_and_memory');
  if (only !== null && only !== 'true' && only !== 'false') return sendText(res, 400, `invalid only_cpu_and_memory value: ${only}\n`);
  sendJson(res, 200, await stats.summary({ onlyCpuAndMemory: only === 'true' }));
}
