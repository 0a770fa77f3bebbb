/** One prom-client Registry per endpoint (/metrics, /metrics/cadvisor, /metrics/resource, /metrics/probes). */
import { Registry } from 'prom-client';

export type MetricsEndpoint = 'kubelet' | 'cadvisor' | 'resource' | 'probes';

export function createRegistry(defaultLabels?: Record<string, string>): Registry {
  const r = new Registry();
  if (defaultLabels) r.setDefaultLabels(defaultLabels);
  return r;
}

/** Returns the metric registered under name, or registers the one make() builds (idempotent factories). */
export function getOrCreate<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/** Prometheus' DefBuckets. */
export const DEF_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0, v = start; i < count; i++, v *= factor) out.push(v);
  return out;
}
