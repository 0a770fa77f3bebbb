import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RingBuffer } from './ring-buffer.ts';

test('time-bounded: drops samples older than maxAge before the newest', () => {
  const b = new RingBuffer<{ time: number }>(120_000, 100);
  for (let t = 0; t <= 200_000; t += 10_000) b.push({ time: t });
  assert.equal(b.items()[0]?.time, 80_000);
  assert.equal(b.size, 13);
  assert.equal(b.latest()?.time, 200_000);
  assert.equal(b.previous()?.time, 190_000);
  assert.deepEqual(b.items(170_000).map((i) => i.time), [180_000, 190_000, 200_000]);
  assert.deepEqual(b.items(undefined, 2).map((i) => i.time), [190_000, 200_000]);
});

test('count-bounded: overwrites the oldest when full', () => {
  const b = new RingBuffer<{ time: number }>(1e9, 3);
  for (const t of [1, 2, 3, 4, 5]) b.push({ time: t });
  assert.deepEqual(b.items().map((i) => i.time), [3, 4, 5]);
  b.clear();
  assert.equal(b.latest(), undefined);
  assert.equal(b.previous(), undefined);
});
