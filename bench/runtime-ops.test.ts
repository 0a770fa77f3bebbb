import assert from 'node:assert/strict';
import { it } from 'node:test';
import { operationDurations, operationRates, perStart, runtimeOperations } from './runtime-ops.ts';

it('reads kubelet_runtime_operations_total and gives the calls of a window per minute, most first', () => {
  // The text format as the kubelet's /metrics writes the counter (HELP/TYPE lines, one series per operation_type).
  const page = (list: number, status: number) => [
    '# HELP kubelet_runtime_operations_total [ALPHA] Cumulative number of runtime operations by operation type.',
    '# TYPE kubelet_runtime_operations_total counter',
    `kubelet_runtime_operations_total{operation_type="list_containers"} ${list}`,
    `kubelet_runtime_operations_total{operation_type="container_status"} ${status}`,
    'kubelet_runtime_operations_total{operation_type="version"} 1',
    'kubelet_runtime_operations_errors_total{operation_type="version"} 3',
  ].join('\n');
  const before = runtimeOperations(page(10, 100));
  assert.equal(before.get('list_containers'), 10);
  assert.equal(before.has('kubelet_runtime_operations_errors_total'), false);
  assert.deepEqual(operationRates(before, runtimeOperations(page(16, 400)), 30), [['container_status', '300', '600.0'], ['list_containers', '6', '12.0']]);
});

it('gives the CRI calls and milliseconds per pod start from the duration histogram', () => {
  const page = (runSum: number, runCount: number, statusSum: number, statusCount: number) => [
    `kubelet_runtime_operations_duration_seconds_bucket{operation_type="run_podsandbox",le="+Inf"} ${runCount}`,
    `kubelet_runtime_operations_duration_seconds_sum{operation_type="run_podsandbox"} ${runSum}`,
    `kubelet_runtime_operations_duration_seconds_count{operation_type="run_podsandbox"} ${runCount}`,
    `kubelet_runtime_operations_duration_seconds_sum{operation_type="container_status"} ${statusSum}`,
    `kubelet_runtime_operations_duration_seconds_count{operation_type="container_status"} ${statusCount}`,
  ].join('\n');
  const before = operationDurations(page(0.5, 5, 0.01, 10));
  assert.deepEqual(before.get('run_podsandbox'), { seconds: 0.5, count: 5 });
  assert.deepEqual(perStart(before, operationDurations(page(0.9, 7, 0.03, 18)), 2), [['run_podsandbox', '1.0', '200.0'], ['container_status', '4.0', '10.0']]);
});
