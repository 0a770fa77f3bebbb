import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusCache } from './cache.ts';
import { emptyPodStatus } from './types.ts';

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
