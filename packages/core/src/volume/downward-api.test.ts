/**
 * Downward API resource values. Expected values come from the Kubernetes v1.28 source:
 * - pkg/api/v1/resource/helpers_test.go TestExtractResourceValue (divisors, ceil rounding, requests default 0);
 * - test/e2e/common/storage/downwardapi_volume.go and test/e2e/common/node/downwardapi.go: requests 250m / 32Mi,
 *   limits 1250m / 64Mi → cpu_limit "2", cpu_request "1", memory_limit "67108864", memory_request "33554432";
 * - pkg/kubelet/kubelet_resources_test.go TestPodResourceLimitsDefaulting: node allocatable cpu 6, memory 4Gi fill
 *   in the limits a container does not set ("should provide node allocatable (cpu|memory) as default ... limit").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { containerResourceValue, resourceValue, volumeFieldValue } from './downward-api.ts';

type Res = { cpuRequest?: string; cpuLimit?: string; memoryRequest?: string; memoryLimit?: string; ephRequest?: string; ephLimit?: string };

function container(r: Res): V1Container {
  const limits: Record<string, string> = {};
  const requests: Record<string, string> = {};
  if (r.cpuLimit) limits.cpu = r.cpuLimit;
  if (r.memoryLimit) limits.memory = r.memoryLimit;
  if (r.ephLimit) limits['ephemeral-storage'] = r.ephLimit;
  if (r.cpuRequest) requests.cpu = r.cpuRequest;
  if (r.memoryRequest) requests.memory = r.memoryRequest;
  if (r.ephRequest) requests['ephemeral-storage'] = r.ephRequest;
  return { name: 'foo', resources: { limits, requests } };
}

const E2E: Res = { cpuRequest: '250m', memoryRequest: '32Mi', cpuLimit: '1250m', memoryLimit: '64Mi' };
const ALLOC = { cpuMilli: 6000, memoryBytes: 4 * 2 ** 30, ephemeralStorageBytes: 10 * 2 ** 30 };

const cases: Array<{ name: string; res: Res; resource: string; divisor?: string; want: string }> = [
  // helpers_test.go TestExtractResourceValue
  { name: 'limits.cpu 9', res: { cpuLimit: '9' }, resource: 'limits.cpu', want: '9' },
  { name: 'requests.cpu unset', res: {}, resource: 'requests.cpu', want: '0' },
  { name: 'requests.cpu 8', res: { cpuRequest: '8' }, resource: 'requests.cpu', want: '8' },
  { name: 'requests.cpu 100m rounds up', res: { cpuRequest: '100m' }, resource: 'requests.cpu', want: '1' },
  { name: 'requests.cpu 1200m / 100m', res: { cpuRequest: '1200m' }, resource: 'requests.cpu', divisor: '100m', want: '12' },
  { name: 'requests.memory 100Mi', res: { memoryRequest: '100Mi' }, resource: 'requests.memory', want: '104857600' },
  { name: 'requests.memory 100Mi / 1Mi', res: { memoryRequest: '100Mi', memoryLimit: '1Gi' }, resource: 'requests.memory', divisor: '1Mi', want: '100' },
  { name: 'limits.memory 100Mi', res: { memoryRequest: '10Mi', memoryLimit: '100Mi' }, resource: 'limits.memory', want: '104857600' },
  // downwardapi_volume.go / node/downwardapi.go
  { name: 'e2e cpu_limit', res: E2E, resource: 'limits.cpu', want: '2' },
  { name: 'e2e cpu_request', res: E2E, resource: 'requests.cpu', want: '1' },
  { name: 'e2e memory_limit', res: E2E, resource: 'limits.memory', want: '67108864' },
  { name: 'e2e memory_request', res: E2E, resource: 'requests.memory', want: '33554432' },
  { name: 'cpu in millicores (divisor 1m)', res: E2E, resource: 'limits.cpu', divisor: '1m', want: '1250' },
  { name: 'memory in Mi (divisor 1Mi)', res: E2E, resource: 'limits.memory', divisor: '1Mi', want: '64' },
  { name: 'ephemeral-storage / 1Ki', res: { ephRequest: '1Mi', ephLimit: '2Mi' }, resource: 'requests.ephemeral-storage', divisor: '1Ki', want: '1024' },
  { name: 'divisor 0 means 1', res: { cpuLimit: '3' }, resource: 'limits.cpu', divisor: '0', want: '3' },
  // TestPodResourceLimitsDefaulting: no limit → node allocatable
  { name: 'limits.cpu from allocatable', res: {}, resource: 'limits.cpu', want: '6' },
  { name: 'limits.memory from allocatable', res: {}, resource: 'limits.memory', want: String(4 * 2 ** 30) },
  { name: 'limits.ephemeral-storage from allocatable / 1Gi', res: {}, resource: 'limits.ephemeral-storage', divisor: '1Gi', want: '10' },
  { name: 'requests stay 0 without limit', res: { cpuLimit: '1' }, resource: 'requests.memory', want: '0' },
  { name: 'a set limit wins over allocatable', res: { memoryLimit: '64Mi' }, resource: 'limits.memory', want: '67108864' },
];

test('containerResourceValue: ExtractContainerResourceValue values, divisors and node-allocatable defaults', () => {
  for (const tc of cases) {
    const r = containerResourceValue(container(tc.res), { resource: tc.resource, ...(tc.divisor ? { divisor: tc.divisor } : {}) }, ALLOC);
    assert.deepEqual(r, { ok: true, value: tc.want }, tc.name);
  }
});

test('resourceValue: refusals use the kubelet messages', () => {
  const pod: V1Pod = { spec: { containers: [container({})] } };
  assert.deepEqual(resourceValue(pod, { containerName: 'nope', resource: 'limits.cpu' }), { ok: false, message: 'container nope not found' });
  assert.deepEqual(resourceValue(pod, { containerName: 'foo', resource: 'limits.gpu' }), { ok: false, message: 'unsupported container resource : limits.gpu' });
  const init: V1Pod = { spec: { containers: [], initContainers: [container({ cpuLimit: '2' })] } };
  assert.deepEqual(resourceValue(init, { containerName: 'foo', resource: 'limits.cpu' }), { ok: true, value: '2' });
});

test('volumeFieldValue: the metadata paths a downward API volume allows (ExtractFieldPathAsString)', () => {
  const pod: V1Pod = { metadata: { name: 'p', namespace: 'ns', uid: 'u1', labels: { b: '2', a: 'x' }, annotations: { note: 'hi' } }, spec: { containers: [] } };
  const want: Array<[string, string]> = [
    ['metadata.name', 'p'],
    ['metadata.namespace', 'ns'],
    ['metadata.uid', 'u1'],
    ['metadata.labels', 'a="x"\nb="2"'],
    ['metadata.annotations', 'note="hi"'],
    ["metadata.labels['b']", '2'],
    ["metadata.annotations['note']", 'hi'],
    ["metadata.annotations['gone']", ''],
  ];
  for (const [path, value] of want) assert.deepEqual(volumeFieldValue(pod, path), { ok: true, value }, path);
  assert.deepEqual(volumeFieldValue(pod, 'spec.nodeName'), { ok: false, message: 'unsupported fieldPath: spec.nodeName' });
});
