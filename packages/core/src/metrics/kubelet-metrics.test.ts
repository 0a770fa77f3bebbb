import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { RUNTIME_OPERATION_BUCKETS, createKubeletMetrics, imageSizeBucket } from './kubelet-metrics.ts';

test('handles are idempotent per registry and carry upstream names, labels and buckets', async () => {
  const r = new Registry();
  const a = createKubeletMetrics(r);
  const b = createKubeletMetrics(r);
  assert.equal(a.runtimeOperations, b.runtimeOperations);
  a.runtimeOperationsDuration.observe({ operation_type: 'version' }, 0.01);
  a.podStartSliDuration.observe(3);
  const text = await r.metrics();
  assert.match(text, /kubelet_runtime_operations_duration_seconds_bucket\{le="0.005",operation_type="version"\} 0/);
  assert.match(text, /kubelet_runtime_operations_duration_seconds_bucket\{le="0.0125",operation_type="version"\} 1/);
  assert.match(text, /kubelet_pod_start_sli_duration_seconds_bucket\{le="3"\} 1/);
  assert.match(text, /# TYPE kubelet_pleg_discard_events counter/);
  assert.equal(RUNTIME_OPERATION_BUCKETS.length, 14);
  assert.equal(RUNTIME_OPERATION_BUCKETS[13]?.toFixed(4), "745.0581");
});

test('imageSizeBucket', () => {
  const MB = 2 ** 20;
  const cases: [number, string][] = [[0, '0-10MB'], [10 * MB, '10MB-100MB'], [600 * MB, '500MB-1GB'], [2 ** 30, '1GB-5GB'], [200 * 2 ** 30, 'GT100GB']];
  for (const [bytes, want] of cases) assert.equal(imageSizeBucket(bytes), want);
});
