import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from './clock.ts';
import { Backoff, CONTAINER_BACKOFF } from './backoff.ts';

test('backoff doubles from initial to max', () => {
  const clock = new FakeClock();
  const b = new Backoff(clock, CONTAINER_BACKOFF);
  const got = [1, 2, 3, 4, 5, 6, 7].map(() => b.next('c'));
  assert.deepEqual(got, [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
  assert.equal(b.get('c'), 300_000);
  assert.equal(b.get('other'), 0);
});

test('isInBackOffSince: inside the window until backoff elapsed since the event', async () => {
  const clock = new FakeClock();
  const b = new Backoff(clock, CONTAINER_BACKOFF);
  const failedAt = clock.now();
  assert.equal(b.isInBackOffSince('c', failedAt), false, 'unknown key is not in backoff');
  b.next('c', failedAt);
  assert.equal(b.isInBackOffSince('c', failedAt), true);
  await clock.step(9_999);
  assert.equal(b.isInBackOffSince('c', failedAt), true);
  assert.equal(b.remaining('c', failedAt), 1);
  await clock.step(1);
  assert.equal(b.isInBackOffSince('c', failedAt), false);
});

test('a key stable for more than 2×max restarts at initial (10 minutes clean resets CrashLoopBackOff)', async () => {
  const clock = new FakeClock();
  const b = new Backoff(clock, CONTAINER_BACKOFF);
  for (let i = 0; i < 6; i++) b.next('c');
  assert.equal(b.get('c'), 300_000);
  await clock.step(600_000);
  assert.equal(b.next('c'), 300_000, 'exactly 2×max is not expired yet');
  await clock.step(600_001);
  assert.equal(b.next('c'), 10_000);
});

test('reset and gc drop entries', async () => {
  const clock = new FakeClock();
  const b = new Backoff(clock, { initialMs: 1_000, maxMs: 5_000 });
  b.next('a');
  b.next('b');
  b.reset('a');
  assert.equal(b.get('a'), 0);
  assert.equal(b.size, 1);
  await clock.step(10_001);
  b.next('c');
  assert.equal(b.gc(), 1);
  assert.equal(b.size, 1);
  assert.equal(b.get('c'), 1_000);
});

test('isInBackOffSinceUpdate compares eventTime with the last update', async () => {
  const clock = new FakeClock();
  const b = new Backoff(clock, { initialMs: 1_000, maxMs: 5_000 });
  b.next('k');
  const t0 = clock.now();
  assert.equal(b.isInBackOffSinceUpdate('k', t0 + 999), true);
  assert.equal(b.isInBackOffSinceUpdate('k', t0 + 1_000), false);
});

test('invalid config throws', () => {
  assert.throws(() => new Backoff(new FakeClock(), { initialMs: 0, maxMs: 1 }));
  assert.throws(() => new Backoff(new FakeClock(), { initialMs: 10, maxMs: 1 }));
});
