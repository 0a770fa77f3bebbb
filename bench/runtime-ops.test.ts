import assert from 'node:assert/strict';
import { it } from 'node:test';
import { operationRates, runtimeOperations } from './runtime-ops.ts';

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
