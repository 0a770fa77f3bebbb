import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { FakeApiClient, fail, ok } from '../apiclient/testing/fake-client.ts';
import { ApiObjectManager } from './object-manager.ts';

const pod: V1Pod = { metadata: { name: 'p', namespace: 'ns', uid: 'u', annotations: { 'kubernetes.io/config.source': 'api' } }, spec: { containers: [] } };

test('ApiObjectManager: GET through the API client, cached for the TTL, kubelet messages', async () => {
  const clock = new FakeClock();
  let version = 1;
  const api = new FakeApiClient((req) => (req.path.endsWith('/cfg') ? ok({ data: { v: String(version) } }) : req.path.endsWith('/boom') ? fail(500, 'InternalError', 'etcd down') : fail(404, 'NotFound')));
  const m = new ApiObjectManager({ clock, api }, { ttlMs: 5_000 });
  const v = async () => {
    const r = await m.getConfigMap(pod, 'cfg');
    return r.ok ? r.object.data?.v : r.message;
  };
  assert.equal(await v(), '1');
  version = 2;
  await clock.step(4_999);
  assert.equal(await v(), '1', 'cached');
  await clock.step(1);
  assert.equal(await v(), '2', 'TTL over');
  assert.deepEqual(api.summary(), ['GET /api/v1/namespaces/ns/configmaps/cfg', 'GET /api/v1/namespaces/ns/configmaps/cfg']);
  assert.deepEqual(await m.getSecret(pod, 'gone'), { ok: false, notFound: true, message: 'secret "gone" not found' });
  assert.deepEqual(await m.getConfigMap(pod, 'boom'), { ok: false, notFound: false, message: 'failed to get configmap ns/boom: etcd down' });
});

test('ApiObjectManager: static pods are refused, no API client means not found', async () => {
  const clock = new FakeClock();
  const api = new FakeApiClient();
  const staticPod: V1Pod = { ...pod, metadata: { ...pod.metadata, annotations: { 'kubernetes.io/config.source': 'file' } } };
  assert.deepEqual(await new ApiObjectManager({ clock, api }).getConfigMap(staticPod, 'x'), { ok: false, notFound: false, message: 'static pods may not reference configmaps' });
  assert.deepEqual(await new ApiObjectManager({ clock, api }).getSecret(staticPod, 'x'), { ok: false, notFound: false, message: 'static pods may not reference secrets' });
  assert.equal(api.calls.length, 0);
  assert.deepEqual(await new ApiObjectManager({ clock }).getConfigMap(pod, 'x'), { ok: false, notFound: true, message: 'configmap "x" not found' });
});
