import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { RecordingLogger } from '../util/logger.ts';
import { InMemoryEventBus } from './bus.ts';
import type { NodeletEvent, NodeletEventInput } from './types.ts';

const pod = (name: string, namespace = 'default') => ({ namespace, name, uid: `uid-${name}` });
const cfg = (name: string, namespace?: string): NodeletEventInput => ({
  type: 'podConfig',
  op: 'ADD',
  source: 'file',
  pod: pod(name, namespace),
});

test('publish stamps seq and time from the clock', () => {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const bus = new InMemoryEventBus({ clock });
  const a = bus.publish(cfg('a'));
  const b = bus.publish({ type: 'runtime', ready: true, message: 'ok', time: '2020-01-01T00:00:00.000Z' });
  assert.equal(a.seq, 1);
  assert.equal(b.seq, 2);
  assert.equal(a.time, '2026-01-01T00:00:00.000Z');
  assert.equal(b.time, '2020-01-01T00:00:00.000Z', 'explicit time kept');
  assert.equal(bus.lastSeq(), 2);
});

test('ring buffer keeps the newest capacity events, oldest first', () => {
  const bus = new InMemoryEventBus({ clock: new FakeClock() }, { capacity: 3 });
  for (const n of ['a', 'b', 'c', 'd', 'e']) bus.publish(cfg(n));
  assert.deepEqual(
    bus.recent().map((e) => e.seq),
    [3, 4, 5],
  );
  assert.deepEqual(
    bus.recent(undefined, 2).map((e) => e.seq),
    [4, 5],
    'limit keeps the most recent',
  );
});

test('recent filters by namespace, pod, types and afterSeq', () => {
  const bus = new InMemoryEventBus({ clock: new FakeClock() });
  bus.publish(cfg('a', 'ns1'));
  bus.publish(cfg('b', 'ns2'));
  bus.publish({ type: 'runtime', ready: false, message: 'down' });
  bus.publish(cfg('a', 'ns1'));
  assert.deepEqual(bus.recent({ namespace: 'ns1' }).map((e) => e.seq), [1, 4]);
  assert.deepEqual(bus.recent({ pod: 'b' }).map((e) => e.seq), [2]);
  assert.deepEqual(bus.recent({ types: ['runtime'] }).map((e) => e.seq), [3]);
  assert.deepEqual(bus.recent({ afterSeq: 2 }).map((e) => e.seq), [3, 4]);
});

test('a throwing listener is removed and others still receive', () => {
  const rec = new RecordingLogger();
  const bus = new InMemoryEventBus({ clock: new FakeClock(), logger: rec.logger });
  const got: NodeletEvent[] = [];
  bus.subscribe(() => {
    throw new Error('bad listener');
  });
  bus.subscribe((e) => got.push(e));
  bus.publish(cfg('a'));
  bus.publish(cfg('b'));
  assert.equal(got.length, 2);
  assert.equal(bus.listenerCount(), 1);
  assert.equal(rec.records.filter((r) => r.level === 'error').length, 1);
});

test('unsubscribe stops delivery', () => {
  const bus = new InMemoryEventBus({ clock: new FakeClock() });
  let n = 0;
  const off = bus.subscribe(() => n++);
  bus.publish(cfg('a'));
  off();
  bus.publish(cfg('b'));
  assert.equal(n, 1);
});
