import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusCache } from './cache.ts';
import { emptyPodStatus, readySandboxIps } from './types.ts';

test('getNewerThan resolves at once when data is newer', async () => {
  const c = new StatusCache();
  c.set('u1', { ...emptyPodStatus('u1', 'p'), ips: ['10.0.0.1'] }, undefined, 100);
  const r = await c.getNewerThan('u1', 50);
  assert.deepEqual(r.status.ips, ['10.0.0.1']);
});

test('getNewerThan waits for newer data or a newer global timestamp', async () => {
  const cases = [
    { name: 'pod data newer', act: (c: StatusCache) => c.set('u1', emptyPodStatus('u1', 'fresh'), undefined, 200), want: 'fresh' },
    { name: 'global time newer', act: (c: StatusCache) => c.updateTime(201), want: 'old' },
  ];
  for (const tc of cases) {
    const c = new StatusCache();
    c.set('u1', emptyPodStatus('u1', 'old'), undefined, 100);
    let got: string | undefined;
    void c.getNewerThan('u1', 150).then((r) => (got = r.status.name));
    await Promise.resolve();
    assert.equal(got, undefined, tc.name);
    assert.equal(c.waiting(), 1);
    c.updateTime(150); // not strictly after minTime
    await Promise.resolve();
    assert.equal(got, undefined, tc.name);
    tc.act(c);
    await new Promise((r) => setImmediate(r));
    assert.equal(got, tc.want, tc.name);
    assert.equal(c.waiting(), 0);
  }
});

test('unknown pod resolves with an empty status once the global timestamp passes', async () => {
  const c = new StatusCache();
  c.updateTime(10);
  const r = await c.getNewerThan('nope', 5);
  assert.equal(r.status.uid, 'nope');
  assert.equal(r.status.containerStatuses.length, 0);
});

test('a write older than the cached entry is dropped (a slow read never undoes a newer one)', () => {
  const c = new StatusCache();
  assert.equal(c.set('u1', emptyPodStatus('u1', 'new'), undefined, 200), true);
  assert.equal(c.set('u1', emptyPodStatus('u1', 'slow'), undefined, 150), false);
  assert.equal(c.get('u1').status.name, 'new');
  assert.equal(c.set('u1', emptyPodStatus('u1', 'same time'), undefined, 200), true, 'as new as the entry: kept');
  assert.equal(c.get('u1').modified, 200);
});

test('podEntryOnly: the global timestamp does not count, only a newer read of the pod', async () => {
  const c = new StatusCache();
  c.set('u1', emptyPodStatus('u1', 'old'), undefined, 100);
  let got: string | undefined;
  void c.getNewerThan('u1', 150, { podEntryOnly: true }).then((r) => (got = r.status.name));
  c.updateTime(500);
  await new Promise((r) => setImmediate(r));
  assert.equal(got, undefined);
  const unknown = c.getNewerThan('nope', 150, { podEntryOnly: true });
  c.set('u1', emptyPodStatus('u1', 'fresh'), undefined, 151);
  await new Promise((r) => setImmediate(r));
  assert.equal(got, 'fresh');
  c.set('nope', emptyPodStatus('nope', 'read'), undefined, 151);
  assert.equal((await unknown).status.name, 'read', 'a pod without an entry waits for one');
});

test('a pod found gone by a read begun after minTime answers readers of its own entry (empty status); an older read never removes a newer entry', async () => {
  const c = new StatusCache();
  c.set('u1', emptyPodStatus('u1', 'p'), undefined, 100);
  assert.equal(c.delete('u1', 90), false, 'a read begun before the entry was written');
  assert.equal(c.get('u1').modified, 100);
  let got: string | undefined;
  void c.getNewerThan('u1', 150, { podEntryOnly: true }).then((r) => (got = `${r.status.uid}:${r.status.containerStatuses.length}`));
  assert.equal(c.delete('u1', 140), true);
  await new Promise((r) => setImmediate(r));
  assert.equal(got, undefined, 'gone as of before minTime is no news');
  c.delete('u1', 160);
  await new Promise((r) => setImmediate(r));
  assert.equal(got, 'u1:0');
  assert.deepEqual((await c.getNewerThan('u1', 155, { podEntryOnly: true })).status.containerStatuses, [], 'asked after the removal');
  assert.equal(c.waiting(), 0);
});

test('readySandboxIps: the IPs of the named sandbox only while the status shows it ready', () => {
  const s = { uid: 'u', name: 'p', namespace: 'd', ips: [], containerStatuses: [], sandboxStatuses: [
    { id: 'new', state: 'ready' as const, createdAt: 2, attempt: 1, ip: '10.88.0.9', additionalIps: ['fd00::9'] },
    { id: 'old', state: 'notready' as const, createdAt: 1, attempt: 0, ip: '10.88.0.3', additionalIps: [] },
  ] };
  assert.deepEqual(readySandboxIps(s, 'new'), ['10.88.0.9', 'fd00::9']);
  assert.equal(readySandboxIps(s, 'old'), undefined);
  assert.equal(readySandboxIps(s, 'other'), undefined);
  assert.deepEqual(readySandboxIps({ ...s, sandboxStatuses: [{ ...s.sandboxStatuses[0]!, ip: '', additionalIps: [] }] }, 'new'), [], 'host network: ready, no IPs');
});
