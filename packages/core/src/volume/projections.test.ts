import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod, V1Volume } from '@kubernetes/client-node';
import { FakeObjects, FakeTokens } from '../podobjects/testing/fake-sources.ts';
import { volumePayload } from './projections.ts';
import { formatMap, resourceValue } from './downward-api.ts';

const pod: V1Pod = {
  metadata: { name: 'web', namespace: 'ns1', uid: 'u1', labels: { b: '2', a: 'x"y' }, annotations: { note: 'hi' } },
  spec: {
    serviceAccountName: 'sa1',
    containers: [{ name: 'c', image: 'i', resources: { limits: { memory: '64Mi', cpu: '250m' }, requests: { memory: '32Mi' } } }],
  },
};

function deps() {
  const objects = new FakeObjects();
  objects.configMaps.set('ns1/cfg', { data: { 'app.conf': 'x=1', other: 'o' }, binaryData: { bin: Buffer.from([0, 1]).toString('base64') } });
  objects.secrets.set('ns1/sec', { data: { password: Buffer.from('s3cret').toString('base64') } });
  return { objects, tokens: new FakeTokens() };
}

type Want = Record<string, [string, number]> | string;
const cases: Array<{ name: string; volume: V1Volume; want: Want }> = [
  { name: 'configMap: all keys, default mode 0644', volume: { name: 'v', configMap: { name: 'cfg' } }, want: { 'app.conf': ['x=1', 0o644], other: ['o', 0o644], bin: ['\u0000\u0001', 0o644] } },
  {
    name: 'configMap: items with paths and modes',
    volume: { name: 'v', configMap: { name: 'cfg', defaultMode: 0o400, items: [{ key: 'app.conf', path: 'etc/app.conf', mode: 0o600 }, { key: 'other', path: 'o' }] } },
    want: { 'etc/app.conf': ['x=1', 0o600], o: ['o', 0o400] },
  },
  { name: 'configMap: missing key', volume: { name: 'v', configMap: { name: 'cfg', items: [{ key: 'nope', path: 'n' }] } }, want: 'configmap references non-existent config key: nope' },
  { name: 'configMap: missing optional key is skipped', volume: { name: 'v', configMap: { name: 'cfg', optional: true, items: [{ key: 'nope', path: 'n' }] } }, want: {} },
  { name: 'configMap: missing', volume: { name: 'v', configMap: { name: 'gone' } }, want: 'configmap "gone" not found' },
  { name: 'configMap: missing optional is empty', volume: { name: 'v', configMap: { name: 'gone', optional: true } }, want: {} },
  { name: 'secret: decoded', volume: { name: 'v', secret: { secretName: 'sec', defaultMode: 0o440 } }, want: { password: ['s3cret', 0o440] } },
  { name: 'secret: missing', volume: { name: 'v', secret: { secretName: 'gone' } }, want: 'secret "gone" not found' },
  { name: 'secret: missing key', volume: { name: 'v', secret: { secretName: 'sec', items: [{ key: 'k', path: 'k' }] } }, want: 'references non-existent secret key: k' },
  {
    name: 'downwardAPI: metadata fields and labels',
    volume: {
      name: 'v',
      downwardAPI: {
        items: [
          { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
          { path: 'name', fieldRef: { fieldPath: 'metadata.name' }, mode: 0o400 },
          { path: 'note', fieldRef: { fieldPath: "metadata.annotations['note']" } },
          { path: 'mem', resourceFieldRef: { containerName: 'c', resource: 'limits.memory', divisor: '1Mi' } },
        ],
      },
    },
    want: { labels: ['a="x\\"y"\nb="2"', 0o644], name: ['web', 0o400], note: ['hi', 0o644], mem: ['64', 0o644] },
  },
  { name: 'downwardAPI: unsupported field', volume: { name: 'v', downwardAPI: { items: [{ path: 'ip', fieldRef: { fieldPath: 'status.podIP' } }] } }, want: 'unsupported fieldPath: status.podIP' },
  {
    name: 'projected: kube-api-access (token + ca + namespace)',
    volume: {
      name: 'kube-api-access-x',
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
          { configMap: { name: 'cfg', items: [{ key: 'app.conf', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
      },
    },
    want: { token: ['token-for-sa1-', 0o644], 'ca.crt': ['x=1', 0o644], namespace: ['ns1', 0o644] },
  },
  {
    name: 'projected: errors of every source are reported',
    volume: { name: 'v', projected: { sources: [{ configMap: { name: 'gone' } }, { secret: { name: 'gone2' } }, { secret: { name: 'gone3', optional: true } }] } },
    want: '[configmap "gone" not found, secret "gone2" not found]',
  },
];

test('volumePayload: configMap / secret / downwardAPI / projected payloads', async () => {
  for (const tc of cases) {
    const r = await volumePayload(deps(), pod, tc.volume);
    assert.ok(r, tc.name);
    if (typeof tc.want === 'string') {
      assert.deepEqual(r, { ok: false, message: tc.want }, tc.name);
      continue;
    }
    assert.ok(r.ok, `${tc.name}: ${r.ok ? '' : r.message}`);
    const got = Object.fromEntries([...r.payload].map(([k, f]) => [k, [f.data.toString('latin1'), f.mode]]));
    assert.deepEqual(got, tc.want, tc.name);
  }
});

test('volumePayload: token projection asks for the audience and expiration (default 3600 s)', async () => {
  const d = deps();
  await volumePayload(d, pod, { name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't', audience: 'vault' } }, { serviceAccountToken: { path: 'u', expirationSeconds: 7200 } }] } });
  assert.deepEqual(d.tokens.requests, [{ audiences: ['vault'], expirationSeconds: 3600 }, { audiences: [], expirationSeconds: 7200 }]);
  d.tokens.fail = 'failed to fetch token: serviceaccounts "sa1" not found';
  const r = await volumePayload(d, pod, { name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } });
  assert.deepEqual(r, { ok: false, message: 'failed to fetch token: serviceaccounts "sa1" not found' });
});

test('volumePayload: emptyDir and hostPath have no payload', async () => {
  assert.equal(await volumePayload(deps(), pod, { name: 'e', emptyDir: {} }), undefined);
  assert.equal(await volumePayload(deps(), pod, { name: 'h', hostPath: { path: '/tmp' } }), undefined);
});

test('downward API helpers: formatMap sorts and quotes; resources round up by divisor', () => {
  assert.equal(formatMap({ z: '1', a: 'b c' }), 'a="b c"\nz="1"');
  const cases: Array<[string, string | undefined, string]> = [
    ['limits.cpu', undefined, '1'],
    ['limits.cpu', '1m', '250'],
    ['requests.memory', '1Mi', '32'],
    ['requests.cpu', undefined, '0'],
    ['limits.memory', undefined, String(64 * 2 ** 20)],
  ];
  for (const [resource, divisor, want] of cases) {
    const r = resourceValue(pod, { containerName: 'c', resource, ...(divisor ? { divisor } : {}) });
    assert.deepEqual(r, { ok: true, value: want }, `${resource}/${divisor}`);
  }
  assert.deepEqual(resourceValue({ spec: { containers: [{ name: 'c' }] } }, { containerName: 'c', resource: 'limits.memory' }, { memoryBytes: 1024 }), { ok: true, value: '1024' });
});
