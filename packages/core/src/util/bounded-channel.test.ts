import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedChannel } from './bounded-channel.ts';

test('trySend drops and counts when full', () => {
  const ch = new BoundedChannel<number>(2);
  assert.equal(ch.trySend(1), true);
  assert.equal(ch.trySend(2), true);
  assert.equal(ch.trySend(3), false);
  assert.equal(ch.dropped, 1);
  assert.deepEqual(ch.drain(), [1, 2]);
  assert.equal(ch.length, 0);
});

test('receive waits for a value and a waiting receiver bypasses the buffer', async () => {
  const ch = new BoundedChannel<string>(1);
  const r = ch.receive();
  assert.equal(ch.trySend('x'), true);
  assert.deepEqual(await r, { value: 'x', done: false });
  assert.equal(ch.length, 0);
});

test('receive rejects on abort and close ends iteration after draining', async () => {
  const ch = new BoundedChannel<number>(3);
  const ac = new AbortController();
  const r = ch.receive(ac.signal);
  ac.abort(new Error('stop'));
  await assert.rejects(r, /stop/);
  ch.trySend(1);
  ch.trySend(2);
  ch.close();
  assert.equal(ch.trySend(3), false);
  const got: number[] = [];
  for await (const v of ch) got.push(v);
  assert.deepEqual(got, [1, 2]);
  assert.equal(ch.dropped, 1);
});
