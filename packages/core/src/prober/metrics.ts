/**
 * The prober's metrics as the kubelet's /metrics/probes: prober_probe_total{probe_type,result,container,pod,
 * namespace,pod_uid} and prober_probe_duration_seconds{probe_type,container,pod,namespace}, on an injected
 * prom-client Registry. As upstream: result is successful|failed|unknown; durations are observed for
 * successful and unknown runs; a stopped worker's series are deleted.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { probeTypeTitle, type ProbeResult, type ProbeType } from './types.ts';

export interface ProbeSeries {
  probeType: ProbeType;
  container: string;
  pod: string;
  namespace: string;
  podUid: string;
}

export interface ProberMetrics {
  observe(s: ProbeSeries, result: ProbeResult, seconds: number): void;
  /** Drops every series of a worker (called when it stops). */
  forget(s: ProbeSeries): void;
}

const RESULT_LABEL: Record<ProbeResult, string> = { success: 'successful', failure: 'failed', unknown: 'unknown' };

export interface ProberMetricsConfig {
  /** When set, also exports process_start_time_seconds (the kubelet's /metrics/probes has it). */
  processStartTimeSeconds?: number;
}

function getOrCreate<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

export function createProberMetrics(registry: Registry, config: ProberMetricsConfig = {}): ProberMetrics {
  const total = getOrCreate(
    registry,
    'prober_probe_total',
    () =>
      new Counter({
        name: 'prober_probe_total',
        help: 'Cumulative number of a liveness, readiness or startup probe for a container by result.',
        labelNames: ['probe_type', 'result', 'container', 'pod', 'namespace', 'pod_uid'] as const,
        registers: [registry],
      }),
  );
  const duration = getOrCreate(
    registry,
    'prober_probe_duration_seconds',
    () =>
      new Histogram({
        name: 'prober_probe_duration_seconds',
        help: 'Duration in seconds for a probe response.',
        labelNames: ['probe_type', 'container', 'pod', 'namespace'] as const,
        registers: [registry],
      }),
  );
  if (config.processStartTimeSeconds !== undefined && !registry.getSingleMetric('process_start_time_seconds')) {
    new Gauge({
      name: 'process_start_time_seconds',
      help: 'Start time of the process since unix epoch in seconds.',
      registers: [registry],
    }).set(config.processStartTimeSeconds);
  }
  const base = (s: ProbeSeries) => ({
    probe_type: probeTypeTitle(s.probeType),
    container: s.container,
    pod: s.pod,
    namespace: s.namespace,
  });
  const totalLabels = (s: ProbeSeries, result: string) => ({
    probe_type: probeTypeTitle(s.probeType),
    result,
    container: s.container,
    pod: s.pod,
    namespace: s.namespace,
    pod_uid: s.podUid,
  });
  return {
    observe(s, result, seconds) {
      total.inc(totalLabels(s, RESULT_LABEL[result]));
      if (result !== 'failure') duration.observe(base(s), Math.max(0, seconds));
    },
    forget(s) {
      for (const r of Object.values(RESULT_LABEL)) total.remove(totalLabels(s, r));
      duration.remove(base(s));
    },
  };
}

/** A metrics sink that records nothing (tests, or no registry). */
export const nullProberMetrics: ProberMetrics = { observe() {}, forget() {} };
