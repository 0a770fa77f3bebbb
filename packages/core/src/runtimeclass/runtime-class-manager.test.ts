// The kubelet's RuntimeClass manager (pkg/kubelet/runtimeclass/runtimeclass_manager.go LookupRuntimeHandler and
// its runtimeclass_manager_test.go cases): nil / "" → the default handler "", a known class → its handler, an
// unknown class → the lister's NotFound (`runtimeclass.node.k8s.io "x" not found`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { FakeApiClient, fail, ok } from '../apiclient/testing/fake-client.ts';
import { ApiRuntimeClasses, RuntimeClassNotFoundError, StaticRuntimeClasses } from './runtime-class-manager.ts';

const rc = (name: string, handler: string, rv: string) => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name, resourceVersion: rv }, handler });
const settle = () => new Promise((r) => setImmediate(r));

test('static classes: no name and "" are the default handler; a configured class its handler; others not found', async () => {
  const m = new StaticRuntimeClasses({ sandboxed: 'userns', runc: 'runc' });
  assert.equal(await m.lookupRuntimeHandler(undefined), '');
  assert.equal(await m.lookupRuntimeHandler(null), '');
  assert.equal(await m.lookupRuntimeHandler(''), '');
  assert.equal(await m.lookupRuntimeHandler('sandboxed'), 'userns');
  assert.equal(await m.lookupRuntimeHandler('runc'), 'runc');
  await assert.rejects(m.lookupRuntimeHandler('missing'), (e: unknown) => e instanceof RuntimeClassNotFoundError && e.message === 'runtimeclass.node.k8s.io "missing" not found');
  await assert.rejects(new StaticRuntimeClasses().lookupRuntimeHandler('runc'), /runtimeclass\.node\.k8s\.io "runc" not found/);
});

test('API classes: listed from node.k8s.io/v1 on first use, kept by the watch (added, changed, deleted)', async () => {
  const client = new FakeApiClient((req) =>
    req.path === '/apis/node.k8s.io/v1/runtimeclasses' ? ok({ metadata: { resourceVersion: '10' }, items: [rc('gvisor', 'runsc', '5'), rc('kata', 'kata-fc', '6')] }) : fail(404, 'NotFound'),
  );
  client.watchScript = [
    { events: [{ type: 'ADDED', object: rc('sandboxed', 'userns', '11') }, { type: 'MODIFIED', object: rc('gvisor', 'runsc-v2', '12') }, { type: 'DELETED', object: rc('kata', 'kata-fc', '13') }], end: { ok: true, reason: 'Closed' } },
  ];
  const m = new ApiRuntimeClasses({ api: client, clock: new FakeClock() });
  assert.equal(await m.lookupRuntimeHandler(''), '', 'the default class needs no lookup');
  await settle();
  assert.equal(client.calls.length, 0, 'nothing listed until a pod names a class');
  assert.equal(await m.lookupRuntimeHandler('sandboxed'), 'userns');
  await settle();
  assert.equal(await m.lookupRuntimeHandler('gvisor'), 'runsc-v2', 'the watch updated the handler');
  await assert.rejects(m.lookupRuntimeHandler('kata'), /runtimeclass\.node\.k8s\.io "kata" not found/, 'deleted');
  assert.deepEqual(client.summary(), ['GET /apis/node.k8s.io/v1/runtimeclasses']);
  assert.deepEqual(client.watches.map((w) => [w.path, w.query?.resourceVersion]), [['/apis/node.k8s.io/v1/runtimeclasses', '10'], ['/apis/node.k8s.io/v1/runtimeclasses', '13']]);
  await m.stop();
});

test('API classes: while the first list fails the class is not found (the pod retries at its next sync)', async () => {
  const clock = new FakeClock();
  const client = new FakeApiClient(() => fail(403, 'Forbidden'));
  const m = new ApiRuntimeClasses({ api: client, clock, firstListWaitMs: 100 });
  const asked = m.lookupRuntimeHandler('gvisor').then(() => undefined, (e: unknown) => e);
  await settle();
  await clock.step(100);
  assert.ok((await asked) instanceof RuntimeClassNotFoundError);
  await m.stop();
});
