// The service reflector behind service env vars: lazy start, watch events applied, relist after 410, and the
// object manager's answer (API pods refused until one list succeeded, as the kubelet's serviceHasSynced check).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { FakeApiClient, fail, ok } from '../apiclient/testing/fake-client.ts';
import { ApiObjectManager } from './object-manager.ts';
import { ServiceLister } from './service-lister.ts';

const svc = (name: string, ip: string, rv: string) => ({ metadata: { name, namespace: 'default', resourceVersion: rv }, spec: { clusterIP: ip, ports: [{ port: 80 }] } });
const names = (l: Array<{ metadata?: { name?: string } }>) => l.map((s) => s.metadata?.name).sort();
const settle = () => new Promise((r) => setImmediate(r));

test('service lister: nothing until asked; list, watch from its resourceVersion, events applied, relist after 410 Expired', async () => {
  const client = new FakeApiClient((req, n) => (req.path === '/api/v1/services' ? ok({ metadata: { resourceVersion: `${n}0` }, items: [svc('a', '10.0.0.1', '1')] }) : fail(404, 'NotFound')));
  client.watchScript = [
    { events: [{ type: 'ADDED', object: svc('b', '10.0.0.2', '11') }, { type: 'DELETED', object: svc('a', '10.0.0.1', '12') }], end: fail(410, 'Expired') as never },
    { events: [{ type: 'ADDED', object: svc('c', '10.0.0.3', '21') }, { type: 'BOOKMARK', object: { metadata: { resourceVersion: '25' } } }], end: { ok: true, reason: 'Closed' } },
  ];
  const lister = new ServiceLister({ api: client, clock: new FakeClock() });
  await settle();
  assert.equal(client.calls.length, 0, 'lazy: no list before the first pod asks');
  await lister.list();
  assert.ok(lister.hasSynced);
  await settle();
  assert.deepEqual(client.watches.map((w) => w.query?.resourceVersion), ['10', '20', '25'], 'watch from the list resourceVersion, then the last event / bookmark');
  assert.equal(client.summary().filter((s) => s === 'GET /api/v1/services').length, 2, 'relisted after 410 only');
  assert.deepEqual(names(await lister.list()), ['a', 'c'], 'the relist replaced what the first watch built; the second watch added c');
  await lister.stop();
});

test('object manager: API pods refused until services were listed once; static pods get what is known; no API client, no services', async () => {
  const clock = new FakeClock();
  const client = new FakeApiClient(() => fail(403, 'Forbidden'));
  const m = new ApiObjectManager({ clock, api: client });
  const apiPod: V1Pod = { metadata: { name: 'p', annotations: { 'kubernetes.io/config.source': 'api' } } };
  const staticPod: V1Pod = { metadata: { name: 's', annotations: { 'kubernetes.io/config.source': 'file' } } };
  const asked = m.getServices(apiPod);
  await settle();
  await clock.step(2_000);
  assert.deepEqual(await asked, { ok: false, message: 'services have not yet been read at least once, cannot construct envvars' });
  const st = m.getServices(staticPod);
  await settle();
  await clock.step(2_000);
  assert.deepEqual(await st, { ok: true, services: [] });
  await m.stop();
  assert.deepEqual(await new ApiObjectManager({ clock }).getServices(apiPod), { ok: true, services: [] });
});
