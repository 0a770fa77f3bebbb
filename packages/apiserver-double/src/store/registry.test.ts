import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '@nodelet/core/testing';
import type { KubeObject } from '../resources.ts';
import { thrownStatus } from '../testing/thrown-status.ts';
import { Registry } from './registry.ts';
import { RawStore, type ChangeEvent } from './store.ts';

function setup(historyWindow = 100) {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const reg = new Registry(clock, new RawStore({ historyWindow }));
  const events: ChangeEvent[] = [];
  reg.raw.subscribe((e) => events.push(e));
  reg.create(reg.resource('', 'namespaces'), undefined, { metadata: { name: 'default' } });
  return { clock, reg, events, pods: reg.resource('', 'pods'), leases: reg.resource('coordination.k8s.io', 'leases') };
}

const pod = (name: string, nodeName?: string): KubeObject => ({
  metadata: { name },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'busybox' }] },
});

const apiError = thrownStatus;

test('create sets metadata, defaults and a Pending status; RVs increase globally', () => {
  const { reg, pods } = setup();
  const a = reg.create(pods, 'default', { ...pod('a'), status: { phase: 'Running' } });
  const b = reg.create(pods, 'default', pod('b'));
  assert.match(a.metadata.uid, /^[0-9a-f-]{36}$/);
  assert.equal(a.metadata.creationTimestamp, '2026-01-01T00:00:00Z');
  assert.equal(a.metadata.generation, 1);
  assert.deepEqual(a.status, { phase: 'Pending', qosClass: 'BestEffort' });
  assert.equal(a.spec.restartPolicy, 'Always');
  assert.equal(a.spec.containers[0].imagePullPolicy, 'Always');
  assert.ok(Number(b.metadata.resourceVersion) > Number(a.metadata.resourceVersion));
});

test('create errors: AlreadyExists, missing namespace, Invalid', () => {
  const { reg, pods } = setup();
  reg.create(pods, 'default', pod('a'));
  const cases: [() => unknown, number, string][] = [
    [() => reg.create(pods, 'default', pod('a')), 409, 'pods "a" already exists'],
    [() => reg.create(pods, 'nope', pod('a')), 404, 'namespaces "nope" not found'],
    [() => reg.create(pods, 'default', { metadata: { name: 'x' }, spec: { containers: [] } }), 422, 'Pod "x" is invalid: spec.containers: Required value'],
    [() => reg.create(pods, 'default', { ...pod('Bad_Name') }), 422, 'Pod "Bad_Name" is invalid: metadata.name: Invalid value'],
  ];
  for (const [fn, code, msg] of cases) {
    const s = apiError(fn);
    assert.equal(s.code, code, msg);
    assert.ok(s.message.startsWith(msg), `${s.message} should start with ${msg}`);
  }
});

test('update: stale RV → 409 Conflict; no-op update keeps the RV; spec change bumps generation', () => {
  const { reg, leases, events } = setup();
  const l = reg.create(leases, 'default', { metadata: { name: 'n1' }, spec: { holderIdentity: 'n1', leaseDurationSeconds: 40 } });
  const renewed = reg.update(leases, 'default', 'n1', { ...l, spec: { ...l.spec, renewTime: '2026-01-01T00:00:10.000000Z' } });
  const s = apiError(() => reg.update(leases, 'default', 'n1', { ...l, spec: { holderIdentity: 'other' } }));
  assert.equal(s.code, 409);
  assert.equal(s.message, 'Operation cannot be fulfilled on leases.coordination.k8s.io "n1": the object has been modified; please apply your changes to the latest version and try again');
  const n = events.length;
  const same = reg.update(leases, 'default', 'n1', renewed);
  assert.equal(same.metadata.resourceVersion, renewed.metadata.resourceVersion);
  assert.equal(events.length, n, 'no event for a no-op update');
});

test('pod updates: status ignored on the main resource, spec immutable, status subresource only changes status', () => {
  const { reg, pods } = setup();
  const p = reg.create(pods, 'default', pod('a', 'n1'));
  const main = reg.update(pods, 'default', 'a', { ...p, metadata: { ...p.metadata, labels: { x: 'y' } }, status: { phase: 'Running' } });
  assert.equal(main.status.phase, 'Pending');
  assert.deepEqual(main.metadata.labels, { x: 'y' });
  const s = apiError(() => reg.update(pods, 'default', 'a', { ...main, spec: { ...main.spec, nodeName: 'n2' } }));
  assert.equal(s.code, 422);
  const st = reg.update(pods, 'default', 'a', { ...main, metadata: { ...main.metadata, labels: {} }, status: { phase: 'Running' } }, 'status');
  assert.equal(st.status.phase, 'Running');
  assert.deepEqual(st.metadata.labels, { x: 'y' });
  const img = reg.update(pods, 'default', 'a', { ...st, spec: { ...st.spec, containers: [{ ...st.spec.containers[0], image: 'busybox:2' }] } });
  assert.equal(img.metadata.generation, 2);
});

test('graceful pod deletion: bound pods keep a deletionTimestamp until a grace-0 delete', () => {
  const { reg, pods, events } = setup();
  reg.create(pods, 'default', pod('bound', 'n1'));
  reg.create(pods, 'default', pod('unbound'));
  const d = reg.delete(pods, 'default', 'bound', {});
  assert.equal(d.metadata.deletionTimestamp, '2026-01-01T00:00:30Z');
  assert.equal(d.metadata.deletionGracePeriodSeconds, 30);
  assert.ok(reg.tryGet(pods, 'default', 'bound'));
  const shorter = reg.delete(pods, 'default', 'bound', { gracePeriodSeconds: 5 });
  assert.equal(shorter.metadata.deletionGracePeriodSeconds, 5);
  const longer = reg.delete(pods, 'default', 'bound', { gracePeriodSeconds: 60 });
  assert.equal(longer.metadata.deletionGracePeriodSeconds, 5, 'grace can only shorten');
  const pre = apiError(() => reg.delete(pods, 'default', 'bound', { gracePeriodSeconds: 0, preconditions: { uid: 'other' } }));
  assert.equal(pre.code, 409);
  reg.delete(pods, 'default', 'bound', { gracePeriodSeconds: 0, preconditions: { uid: d.metadata.uid } });
  assert.equal(reg.tryGet(pods, 'default', 'bound'), undefined);
  assert.equal(events.at(-1)?.type, 'DELETED');
  reg.delete(pods, 'default', 'unbound', {});
  assert.equal(reg.tryGet(pods, 'default', 'unbound'), undefined, 'unbound pods go at once');
});

test('finalizers hold an object until the last one is removed', () => {
  const { reg } = setup();
  const cms = reg.resource('', 'configmaps');
  reg.create(cms, 'default', { metadata: { name: 'c', finalizers: ['example.com/x'] } });
  const d = reg.delete(cms, 'default', 'c');
  assert.ok(d.metadata.deletionTimestamp);
  const patched = reg.patch(cms, 'default', 'c', 'application/merge-patch+json', { metadata: { finalizers: null } });
  assert.equal(reg.tryGet(cms, 'default', 'c'), undefined);
  assert.ok(patched.metadata.deletionTimestamp);
});

test('lists: selectors, exact RV from the window, 410 when compacted, limit/continue', () => {
  const { reg, pods } = setup(5);
  reg.create(pods, 'default', pod('a', 'n1'));
  const rv = reg.raw.currentRv();
  reg.create(pods, 'default', pod('b', 'n2'));
  reg.create(pods, 'default', pod('c', 'n1'));
  assert.deepEqual(reg.list(pods, { fieldSelector: 'spec.nodeName=n1' }).items.map((p) => p.metadata.name), ['a', 'c']);
  assert.deepEqual(reg.list(pods, { resourceVersion: String(rv), resourceVersionMatch: 'Exact' }).items.map((p) => p.metadata.name), ['a']);
  assert.equal(apiError(() => reg.list(pods, { fieldSelector: 'spec.bogus=1' })).message, 'field label not supported: spec.bogus');
  const page1 = reg.list(pods, { limit: 2 });
  assert.equal(page1.items.length, 2);
  assert.equal(page1.metadata.remainingItemCount, 1);
  reg.create(pods, 'default', pod('d'));
  const page2 = reg.list(pods, { limit: 2, continue: page1.metadata.continue });
  assert.deepEqual(page2.items.map((p) => p.metadata.name), ['c'], 'continue reads the first page snapshot');
  for (const n of ['e', 'f', 'g', 'h', 'i']) reg.create(pods, 'default', pod(n));
  const s = apiError(() => reg.list(pods, { resourceVersion: String(rv), resourceVersionMatch: 'Exact' }));
  assert.equal(s.code, 410);
  assert.match(s.message, new RegExp(`^too old resource version: ${rv} \\(\\d+\\)$`));
});
