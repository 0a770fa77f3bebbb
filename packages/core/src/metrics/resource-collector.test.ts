import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { Summary } from '../stats/summary-types.ts';
import { registerResourceCollectors } from './resource-collector.ts';

const T = '2026-01-01T00:00:00.000Z';
const SUMMARY: Summary = {
  node: { nodeName: 'n', startTime: T, cpu: { time: T, usageCoreNanoSeconds: 3e9 }, memory: { time: T, workingSetBytes: 1000 } },
  pods: [{
    podRef: { name: 'p', namespace: 'd', uid: 'u' }, startTime: T, cpu: { time: T, usageCoreNanoSeconds: 2e9 }, memory: { time: T, workingSetBytes: 500 },
    containers: [{ name: 'c', startTime: T, cpu: { time: T, usageCoreNanoSeconds: 1e9 }, memory: { time: T, workingSetBytes: 400 } }],
  }],
};

test('resource metrics from the cpu-and-memory summary, one summary per scrape, scrape error', async () => {
  let calls = 0;
  let fail = false;
  const r = new Registry();
  registerResourceCollectors(r, () => {
    calls++;
    if (fail) throw new Error('boom');
    return SUMMARY;
  });
  const text = await r.metrics();
  for (const line of [
    'node_cpu_usage_seconds_total 3',
    'node_memory_working_set_bytes 1000',
    'pod_cpu_usage_seconds_total{pod="p",namespace="d"} 2',
    'pod_memory_working_set_bytes{pod="p",namespace="d"} 500',
    'container_cpu_usage_seconds_total{container="c",pod="p",namespace="d"} 1',
    'container_memory_working_set_bytes{container="c",pod="p",namespace="d"} 400',
    'container_start_time_seconds{container="c",pod="p",namespace="d"} 1767225600',
    'resource_scrape_error 0',
  ]) assert.ok(text.split('\n').includes(line), line);
  assert.equal(calls, 1);
  fail = true;
  const bad = await r.metrics();
  assert.ok(bad.split('\n').includes('resource_scrape_error 1'));
  assert.ok(!bad.includes('node_memory_working_set_bytes 1000'));
  assert.equal(calls, 2);
});
