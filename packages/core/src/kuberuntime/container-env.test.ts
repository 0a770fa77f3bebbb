import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { FakeObjects } from '../podobjects/testing/fake-sources.ts';
import { makeEnvironment } from './container-env.ts';

const pod: V1Pod = { metadata: { name: 'p', namespace: 'ns', uid: 'u' }, spec: { containers: [] } };

function objects(): FakeObjects {
  const o = new FakeObjects();
  o.configMaps.set('ns/cfg', { data: { A: '1', B: '2', 'bad=name': 'x' } });
  o.secrets.set('ns/sec', { data: { PASS: Buffer.from('pw').toString('base64') } });
  return o;
}

type Want = Record<string, string> | string;
const cases: Array<{ name: string; c: Partial<V1Container>; want: Want; noObjects?: boolean }> = [
  { name: 'envFrom configMap with prefix; invalid names skipped', c: { envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'X_' }] }, want: { X_A: '1', X_B: '2' } },
  { name: 'envFrom secret, env overrides and expands', c: { envFrom: [{ secretRef: { name: 'sec' } }], env: [{ name: 'URL', value: 'u:$(PASS)' }, { name: 'PASS', value: 'over' }] }, want: { PASS: 'over', URL: 'u:pw' } },
  { name: 'envFrom missing configMap', c: { envFrom: [{ configMapRef: { name: 'gone' } }] }, want: 'configmap "gone" not found' },
  { name: 'envFrom missing optional secret', c: { envFrom: [{ secretRef: { name: 'gone', optional: true } }] }, want: {} },
  { name: 'configMapKeyRef', c: { env: [{ name: 'V', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'B' } } }] }, want: { V: '2' } },
  { name: 'secretKeyRef', c: { env: [{ name: 'V', valueFrom: { secretKeyRef: { name: 'sec', key: 'PASS' } } }] }, want: { V: 'pw' } },
  { name: 'configMapKeyRef missing key', c: { env: [{ name: 'V', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'Z' } } }] }, want: "couldn't find key Z in ConfigMap ns/cfg" },
  { name: 'secretKeyRef missing key', c: { env: [{ name: 'V', valueFrom: { secretKeyRef: { name: 'sec', key: 'Z' } } }] }, want: "couldn't find key Z in Secret ns/sec" },
  { name: 'optional missing key', c: { env: [{ name: 'V', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'Z', optional: true } } }] }, want: {} },
  { name: 'missing configMap', c: { env: [{ name: 'V', valueFrom: { configMapKeyRef: { name: 'gone', key: 'Z' } } }] }, want: 'configmap "gone" not found' },
  { name: 'missing optional secret', c: { env: [{ name: 'V', valueFrom: { secretKeyRef: { name: 'gone', key: 'Z', optional: true } } }] }, want: {} },
  { name: 'no API server: not found', noObjects: true, c: { env: [{ name: 'V', valueFrom: { secretKeyRef: { name: 'sec', key: 'PASS' } } }] }, want: 'secret "sec" not found' },
];

test('makeEnvironment: envFrom / configMapKeyRef / secretKeyRef resolution and the kubelet errors', async () => {
  for (const tc of cases) {
    const ctx = { podIp: '', podIps: [], nodeName: 'n', ...(tc.noObjects ? {} : { objects: objects() }) };
    const r = await makeEnvironment(pod, { name: 'c', ...tc.c }, ctx);
    if (typeof tc.want === 'string') {
      assert.deepEqual(r, { ok: false, message: tc.want }, tc.name);
      continue;
    }
    assert.ok(r.ok, `${tc.name}: ${r.ok ? '' : r.message}`);
    assert.deepEqual(Object.fromEntries(r.env.map((e) => [e.key, e.value])), tc.want, tc.name);
  }
  const skipped = await makeEnvironment(pod, { name: 'c', envFrom: [{ configMapRef: { name: 'cfg' } }] }, { podIp: '', podIps: [], nodeName: 'n', objects: objects() });
  assert.ok(skipped.ok);
  assert.deepEqual(skipped.warnings, ['Keys [bad=name] from the EnvFrom configMap ns/cfg were skipped since they are considered invalid environment variable names.']);
});

// Upstream test/e2e/common/node/downwardapi.go (v1.28): "should provide pod name, namespace and IP address as env
// vars", "should provide host IP as an env var", "should provide pod UID as env vars", "should provide container's
// limits.cpu/memory and requests.cpu/memory as env vars" (CPU_LIMIT=2, MEMORY_LIMIT=67108864, CPU_REQUEST=1,
// MEMORY_REQUEST=33554432), "should provide default limits.cpu/memory from node allocatable"; and the kubelet's
// podFieldSelectorRuntimeValue (status.hostIPs / status.podIPs joined with ",").
test('makeEnvironment: every downward API fieldRef path and resourceFieldRef with node-allocatable defaults', async () => {
  const p: V1Pod = {
    metadata: { name: 'dapi', namespace: 'ns', uid: 'u-1', labels: { app: 'web', tier: 'fe' }, annotations: { note: 'hi' } },
    spec: { nodeName: 'node-a', serviceAccountName: 'sa1', containers: [] },
  };
  const field = (name: string, fieldPath: string) => ({ name, valueFrom: { fieldRef: { fieldPath } } });
  const res = (name: string, resource: string, divisor?: string, containerName?: string) => ({
    name,
    valueFrom: { resourceFieldRef: { resource, ...(divisor ? { divisor } : {}), ...(containerName ? { containerName } : {}) } },
  });
  const c: V1Container = {
    name: 'c',
    resources: { requests: { cpu: '250m', memory: '32Mi' }, limits: { cpu: '1250m', memory: '64Mi' } },
    env: [
      field('NAME', 'metadata.name'),
      field('NS', 'metadata.namespace'),
      field('UID', 'metadata.uid'),
      field('LABELS', 'metadata.labels'),
      field('ANN', 'metadata.annotations'),
      field('APP', "metadata.labels['app']"),
      field('NOTE', "metadata.annotations['note']"),
      field('NODE', 'spec.nodeName'),
      field('SA', 'spec.serviceAccountName'),
      field('HOST_IP', 'status.hostIP'),
      field('HOST_IPS', 'status.hostIPs'),
      field('POD_IP', 'status.podIP'),
      field('POD_IPS', 'status.podIPs'),
      res('CPU_LIMIT', 'limits.cpu'),
      res('MEMORY_LIMIT', 'limits.memory'),
      res('CPU_REQUEST', 'requests.cpu'),
      res('MEMORY_REQUEST', 'requests.memory'),
      res('CPU_MILLI', 'limits.cpu', '1m'),
      res('MEM_MI', 'limits.memory', '1Mi', 'c'),
      res('OTHER_CPU_LIMIT', 'limits.cpu', undefined, 'side'),
    ],
  };
  p.spec!.containers = [c, { name: 'side' }];
  const ctx = { podIp: '10.0.0.5', podIps: ['10.0.0.5', 'fd00::5'], hostIp: '192.168.1.2', hostIps: ['192.168.1.2', 'fd00::2'], nodeName: 'n', allocatable: { cpuMilli: 6000, memoryBytes: 4 * 2 ** 30 } };
  const r = await makeEnvironment(p, c, ctx);
  assert.ok(r.ok, r.ok ? '' : r.message);
  assert.deepEqual(Object.fromEntries(r.env.map((e) => [e.key, e.value])), {
    NAME: 'dapi',
    NS: 'ns',
    UID: 'u-1',
    LABELS: 'app="web"\ntier="fe"',
    ANN: 'note="hi"',
    APP: 'web',
    NOTE: 'hi',
    NODE: 'node-a',
    SA: 'sa1',
    HOST_IP: '192.168.1.2',
    HOST_IPS: '192.168.1.2,fd00::2',
    POD_IP: '10.0.0.5',
    POD_IPS: '10.0.0.5,fd00::5',
    CPU_LIMIT: '2',
    MEMORY_LIMIT: '67108864',
    CPU_REQUEST: '1',
    MEMORY_REQUEST: '33554432',
    CPU_MILLI: '1250',
    MEM_MI: '64',
    OTHER_CPU_LIMIT: '6',
  });
  // No limits: node allocatable (kubelet defaultPodLimitsForDownwardAPI).
  const bare: V1Container = { name: 'c', env: [res('CPU_LIMIT', 'limits.cpu'), res('MEMORY_LIMIT', 'limits.memory')] };
  const d = await makeEnvironment({ ...p, spec: { containers: [bare] } }, bare, ctx);
  assert.ok(d.ok);
  assert.deepEqual(d.env, [{ key: 'CPU_LIMIT', value: '6' }, { key: 'MEMORY_LIMIT', value: String(4 * 2 ** 30) }]);
  const bad: V1Container = { name: 'c', env: [res('X', 'limits.gpu')] };
  assert.deepEqual(await makeEnvironment(p, bad, ctx), { ok: false, message: 'unsupported container resource : limits.gpu' });
});
