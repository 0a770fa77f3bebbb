import assert from 'node:assert/strict';
import { it } from 'node:test';
import { FakeClock } from '../util/clock.ts';
import { RUNTIME_CACHE_REFRESH_MS, RuntimeCache } from './runtime-cache.ts';
import type { RuntimePod } from './types.ts';

const pod = (uid: string): RuntimePod => ({ uid, name: uid, namespace: 'default', containers: [], sandboxes: [] });

it('lists again only when the last list is older than the refresh period (3 s, the kubelet\'s runtimeCacheRefreshPeriod)', async () => {
  assert.equal(RUNTIME_CACHE_REFRESH_MS, 3_000);
  const clock = new FakeClock(0);
  let calls = 0;
  let answer = [pod('a')];
  const cache = new RuntimeCache(async () => (calls++, answer), clock);
  assert.deepEqual((await cache.getPods()).map((p) => p.uid), ['a']);
  answer = [pod('b')];
  await clock.step(2_999);
  assert.deepEqual((await cache.getPods()).map((p) => p.uid), ['a'], 'within the period: the cached list');
  await clock.step(1);
  assert.deepEqual((await cache.getPods()).map((p) => p.uid), ['b']);
  assert.equal(calls, 2);
});

it('callers during a list share it; a failed list is not cached', async () => {
  const clock = new FakeClock(0);
  let calls = 0;
  let release: (p: RuntimePod[]) => void = () => {};
  let fail = false;
  const cache = new RuntimeCache(() => {
    calls++;
    if (fail) return Promise.reject(new Error('runtime down'));
    return new Promise<RuntimePod[]>((r) => (release = r));
  }, clock);
  const [a, b] = [cache.getPods(), cache.getPods()];
  release([pod('x')]);
  assert.deepEqual(await a, await b);
  assert.equal(calls, 1);
  await clock.step(3_000);
  fail = true;
  await assert.rejects(cache.getPods(), /runtime down/);
  await assert.rejects(cache.getPods(), /runtime down/, 'tried again, not the error cached');
  assert.equal(calls, 3);
});

it('forceUpdate lists now and refreshes what getPods returns (housekeeping: ForceUpdateIfOlder(now))', async () => {
  const clock = new FakeClock(0);
  let calls = 0;
  let answer = [pod('a')];
  const cache = new RuntimeCache(async () => (calls++, answer), clock);
  await cache.getPods();
  answer = [pod('b')];
  assert.deepEqual((await cache.forceUpdate()).map((p) => p.uid), ['b'], 'a list within the period is not enough');
  assert.deepEqual((await cache.getPods()).map((p) => p.uid), ['b']);
  assert.equal(calls, 2);
});
