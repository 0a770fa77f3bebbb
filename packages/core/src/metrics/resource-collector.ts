/**
 * Pull-based /metrics/resource (what metrics-server scrapes): node, pod and container cpu usage and
 * memory working set, container start times, and resource_scrape_error, from the cpu-and-memory Summary
 * at scrape time. (Upstream also stamps each sample with its collection time; prom-client does not.)
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Summary } from '../stats/summary-types.ts';
import { getOrCreate } from './registry.ts';

type Row = [Record<string, string>, number];
type Def = { name: string; help: string; type: 'counter' | 'gauge'; labels: string[]; rows: (s: Summary) => Row[] };

const sec = (ns: number | undefined) => (ns === undefined ? undefined : ns / 1e9);
const opt = (labels: Record<string, string>, v: number | undefined): Row[] => (v === undefined ? [] : [[labels, v]]);
const CLABELS = ['container', 'pod', 'namespace'];

const DEFS: Def[] = [
  { name: 'node_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed by the node in core-seconds', type: 'counter', labels: [], rows: (s) => opt({}, sec(s.node.cpu?.usageCoreNanoSeconds)) },
  { name: 'node_memory_working_set_bytes', help: 'Current working set of the node in bytes', type: 'gauge', labels: [], rows: (s) => opt({}, s.node.memory?.workingSetBytes) },
  {
    name: 'pod_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed by the pod in core-seconds', type: 'counter', labels: ['pod', 'namespace'],
    rows: (s) => s.pods.flatMap((p) => opt({ pod: p.podRef.name, namespace: p.podRef.namespace }, sec(p.cpu?.usageCoreNanoSeconds))),
  },
  {
    name: 'pod_memory_working_set_bytes', help: 'Current working set of the pod in bytes', type: 'gauge', labels: ['pod', 'namespace'],
    rows: (s) => s.pods.flatMap((p) => opt({ pod: p.podRef.name, namespace: p.podRef.namespace }, p.memory?.workingSetBytes)),
  },
  {
    name: 'container_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed by the container in core-seconds', type: 'counter', labels: CLABELS,
    rows: (s) => s.pods.flatMap((p) => p.containers.flatMap((c) => opt({ container: c.name, pod: p.podRef.name, namespace: p.podRef.namespace }, sec(c.cpu?.usageCoreNanoSeconds)))),
  },
  {
    name: 'container_memory_working_set_bytes', help: 'Current working set of the container in bytes', type: 'gauge', labels: CLABELS,
    rows: (s) => s.pods.flatMap((p) => p.containers.flatMap((c) => opt({ container: c.name, pod: p.podRef.name, namespace: p.podRef.namespace }, c.memory?.workingSetBytes))),
  },
  {
    name: 'container_start_time_seconds', help: 'Start time of the container since unix epoch in seconds', type: 'gauge', labels: CLABELS,
    rows: (s) => s.pods.flatMap((p) => p.containers.map((c): Row => [{ container: c.name, pod: p.podRef.name, namespace: p.podRef.namespace }, Date.parse(c.startTime) / 1000])),
  },
];

export function registerResourceCollectors(registry: Registry, summary: () => Summary): void {
  let failed = 0;
  let cached: { s: Summary | undefined } | undefined;
  // One Summary per scrape: the first collector of a scrape builds it, resource_scrape_error (last) clears it.
  const get = (): Summary | undefined => {
    if (!cached) {
      try {
        cached = { s: summary() };
        failed = 0;
      } catch {
        cached = { s: undefined };
        failed = 1;
      }
    }
    return cached.s;
  };
  for (const d of DEFS) {
    const fill = (set: (l: Record<string, string>, v: number) => void) => {
      const s = get();
      if (s) for (const [l, v] of d.rows(s)) if (Number.isFinite(v)) set(l, v);
    };
    getOrCreate(registry, d.name, () =>
      d.type === 'counter'
        ? new Counter({ name: d.name, help: d.help, labelNames: d.labels, registers: [registry], collect(this: Counter) { this.reset(); fill((l, v) => this.inc(l, v)); } })
        : new Gauge({ name: d.name, help: d.help, labelNames: d.labels, registers: [registry], collect(this: Gauge) { this.reset(); fill((l, v) => this.set(l, v)); } }),
    );
  }
  getOrCreate(registry, 'resource_scrape_error', () => new Gauge({
    name: 'resource_scrape_error', help: '1 if there was an error while getting container metrics, 0 otherwise', registers: [registry],
    collect(this: Gauge) {
      get();
      this.set(failed);
      cached = undefined;
    },
  }));
}
