/** GET /metrics/probes: the prober's registry (prober_probe_total, prober_probe_duration_seconds). */
import type { ServerResponse } from 'node:http';
import type { KubeletApi } from '@nodelet/core/kubelet';
import { notFound } from '../http-util.ts';

export const METRICS_PROBES_PATH = '/metrics/probes';

export async function handleMetricsProbes(res: ServerResponse, kubelet: KubeletApi): Promise<void> {
  if (!kubelet.probes) return notFound(res);
  const { contentType, body } = await kubelet.probes.metrics();
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
