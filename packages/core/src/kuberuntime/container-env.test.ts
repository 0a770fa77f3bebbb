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
