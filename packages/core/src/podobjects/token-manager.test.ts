import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { FakeApiClient, fail, ok } from '../apiclient/testing/fake-client.ts';
import { requiresRefresh, TokenManager } from './token-manager.ts';

const pod: V1Pod = {
  metadata: { name: 'p', namespace: 'ns', uid: 'u1', annotations: { 'kubernetes.io/config.source': 'api' } },
  spec: { serviceAccountName: 'sa', containers: [] },
};

function server(clock: FakeClock) {
  let n = 0;
  return new FakeApiClient((req) => {
    const spec = (req.body as { spec: { expirationSeconds: number } }).spec;
    n++;
    return ok({ status: { token: `t${n}`, expirationTimestamp: new Date(clock.now() + spec.expirationSeconds * 1000).toISOString() } }, 201);
  });
}

test('requiresRefresh: after 80 % of the lifetime or 24 h', () => {
  const h = 3600_000;
  const cases: Array<[number, number, boolean]> = [
    // [lifetime ms, elapsed ms, refresh?]
    [h, 0, false],
    [h, 0.79 * h, false],
    [h, 0.8 * h, true],
    [48 * h, 23.9 * h, false],
    [48 * h, 24 * h, true],
  ];
  for (const [lifetimeMs, elapsed, want] of cases) {
    assert.equal(requiresRefresh({ issuedAt: 0, lifetimeMs, expirationTimestamp: lifetimeMs }, elapsed), want, `${lifetimeMs}/${elapsed}`);
  }
});

test('TokenManager: TokenRequest bound to the pod, cached until 80 % of its lifetime', async () => {
  const clock = new FakeClock();
  const api = server(clock);
  const tm = new TokenManager({ clock, api });
  const spec = { audiences: ['api'], expirationSeconds: 3600 };
  const first = await tm.getServiceAccountToken(pod, spec);
  assert.ok(first.ok);
  assert.equal(first.object.token, 't1');
  assert.deepEqual({ ...api.calls[0], signal: undefined }, {
    signal: undefined,
    method: 'POST',
    path: '/api/v1/namespaces/ns/serviceaccounts/sa/token',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], expirationSeconds: 3600, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1' } } },
  });
  await clock.step(47 * 60_000);
  assert.equal(((await tm.getServiceAccountToken(pod, spec)) as { object: { token: string } }).object.token, 't1', 'cached at 78 %');
  assert.equal(api.calls.length, 1);
  await clock.step(1 * 60_000);
  assert.equal(((await tm.getServiceAccountToken(pod, spec)) as { object: { token: string } }).object.token, 't2', 'refreshed at 80 %');
  assert.equal(((await tm.getServiceAccountToken(pod, { ...spec, audiences: ['other'] })) as { object: { token: string } }).object.token, 't3', 'other audience: other token');
  tm.deleteServiceAccountToken('u1');
  assert.equal(tm.size, 0);
});

test('TokenManager: a failed refresh serves the still-valid token; a missing service account is an error', async () => {
  const clock = new FakeClock();
  const api = server(clock);
  const tm = new TokenManager({ clock, api });
  const spec = { audiences: [], expirationSeconds: 600 };
  assert.ok((await tm.getServiceAccountToken(pod, spec)).ok);
  api.handler = () => fail(404, 'NotFound', 'serviceaccounts "sa" not found');
  await clock.step(9 * 60_000);
  const stale = await tm.getServiceAccountToken(pod, spec);
  assert.ok(stale.ok && stale.object.token === 't1');
  await clock.step(60_000);
  assert.deepEqual(await tm.getServiceAccountToken(pod, spec), { ok: false, notFound: true, message: 'failed to fetch token: serviceaccounts "sa" not found' });
  tm.cleanup();
  assert.equal(tm.size, 0, 'expired tokens dropped');
});

test('TokenManager: static pods may not reference service accounts', async () => {
  const clock = new FakeClock();
  const api = server(clock);
  const tm = new TokenManager({ clock, api });
  const r = await tm.getServiceAccountToken({ ...pod, metadata: { ...pod.metadata, annotations: { 'kubernetes.io/config.source': 'file' } } }, { audiences: [], expirationSeconds: 3600 });
  assert.deepEqual(r, { ok: false, notFound: false, message: 'static pods may not reference serviceaccounts' });
  assert.equal(api.calls.length, 0);
});
