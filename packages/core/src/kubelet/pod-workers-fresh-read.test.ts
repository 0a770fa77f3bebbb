import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodStatus } from '../container/types.ts';
import { emptyStatus, setupPodWorkers as setup, v } from './testing/recording-pod-workers.ts';

test('after a sync that changed the runtime, only a read of the pod begun after it counts: stale entries and global refreshes make the worker wait', async () => {
  const { clock, cache, handlers, workers, flush, refreshes } = setup();
  handlers.acting.add('a');
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  const syncedAt = clock.now();
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await flush();
  assert.deepEqual(refreshes, [], 'the fresh read waits until the clock has passed the end of the sync');
  await clock.step(1);
  // A read begun before the sync ended (a relist that raced the start) is stale.
  cache.set('uid-a', emptyStatus('uid-a'), undefined, syncedAt);
  // The evented PLEG's "every pod is as fresh as the stream" refresh is no proof for this pod.
  cache.updateTime(clock.now() + 5);
  await flush();
  assert.equal(handlers.log.length, 1, 'the worker waits rather than act on a status older than its last sync');
  assert.deepEqual(refreshes, [['uid-a', syncedAt + 1]], 'a fresh read of the pod was asked for');
  cache.set('uid-a', emptyStatus('uid-a'), undefined, syncedAt + 1);
  await workers.waitIdle('uid-a');
  assert.equal(handlers.log.length, 2, 'a read of the pod begun after the sync lets it go');
  // That sync acted too; one that does not brings the global timestamp back into play.
  handlers.acting.delete('a');
  await clock.step(1);
  cache.set('uid-a', emptyStatus('uid-a'), undefined, clock.now());
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  await clock.step(1);
  cache.updateTime(clock.now());
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  assert.equal(handlers.log.length, 4);
});

test('the fresh read after an acting sync begins only once the clock has passed the sync, even when a 1 ms sleep ends before the clock moves', async () => {
  const f = setup();
  const { clock, handlers, workers, flush, refreshes } = f;
  // Node's timers run on the monotonic clock: a 1 ms timer can fire while Date.now() still shows the same ms.
  const sleep = clock.sleep.bind(clock);
  let early = 1;
  clock.sleep = (ms, signal) => (early-- > 0 ? Promise.resolve() : sleep(ms, signal));
  handlers.acting.add('a');
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  const syncedAt = clock.now();
  await flush();
  assert.deepEqual(refreshes, [], 'a read begun now would be stamped with the end of the sync: no newer than it');
  await clock.step(1);
  assert.deepEqual(refreshes, [['uid-a', syncedAt + 1]]);
});

/** Pod a's first sync acts; the fresh read after it waits until `land` is called. */
async function actedWithSlowRead(f: ReturnType<typeof setup>): Promise<{ land: () => void; syncedAt: number }> {
  f.handlers.acting.add('a');
  let land!: () => void;
  f.slowRead.gate = new Promise<void>((r) => (land = r));
  f.workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await f.workers.waitIdle('uid-a');
  return { land, syncedAt: f.clock.now() };
}

test('after a sync that changed the runtime, the worker waits for its fresh read to land before reading the cache', async () => {
  const f = setup();
  const { clock, cache, handlers, workers, flush, refreshes } = f;
  const { land, syncedAt } = await actedWithSlowRead(f);
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await clock.step(1);
  assert.equal(refreshes.length, 1);
  // Newer than the sync, but possibly an old read with an exit patched in: not taken while the read is under way.
  cache.set('uid-a', emptyStatus('uid-a'), undefined, syncedAt + 1);
  await flush();
  assert.equal(handlers.log.length, 1);
  land();
  await workers.waitIdle('uid-a');
  assert.equal(handlers.log.length, 2);
});

test('after an acting sync, a fresh read whose entry is gone (a relist with an older listing removed it) does not make the worker wait for ever: it reads the pod again, then takes a relist begun after the sync', async () => {
  const f = setup();
  const { clock, cache, handlers, workers, flush, refreshes, slowRead } = f;
  const { land, syncedAt } = await actedWithSlowRead(f);
  handlers.acting.delete('a');
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await clock.step(1);
  assert.equal(refreshes.length, 1);
  cache.set('uid-a', emptyStatus('uid-a'), undefined, syncedAt + 1);
  cache.delete('uid-a');
  slowRead.gate = Promise.resolve();
  land();
  await flush();
  await clock.step(4_999);
  cache.updateTime(syncedAt);
  await flush();
  assert.equal(handlers.log.length, 1, 'within the wait, only the pod\'s own entry counts');
  await clock.step(1);
  assert.deepEqual(refreshes, [['uid-a', syncedAt + 1], ['uid-a', syncedAt + 5_001]], 'the pod is read again');
  await clock.step(4_999);
  cache.updateTime(syncedAt);
  await flush();
  assert.equal(handlers.log.length, 1, 'a relist begun before the sync ended is no fresh status');
  await clock.step(1);
  cache.updateTime(clock.now());
  await workers.waitIdle('uid-a');
  assert.equal(handlers.log.length, 2, 'a relist begun after the sync lets it go');
  // The next acting sync whose re-read lands syncs as soon as it does.
  handlers.acting.add('a');
  await clock.step(1);
  cache.updateTime(clock.now());
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await clock.step(5_001);
  cache.set('uid-a', emptyStatus('uid-a'), undefined, clock.now());
  await workers.waitIdle('uid-a');
  assert.equal(handlers.log.length, 4);
});

/** Pod a's status with container `main` (id c1) in `state`, as the evented PLEG builds it from a runtime event. */
function withMain(state: string): PodStatus {
  return { ...emptyStatus('uid-a'), containerStatuses: [{ id: { type: 'nodelet', id: 'c1' }, name: 'main', state }] } as unknown as PodStatus;
}

test('after an acting sync, the pod entry that shows every change it made (built from the runtime event of the last one) stands for the fresh read', async () => {
  const f = setup();
  const { clock, cache, handlers, workers, flush, refreshes } = f;
  handlers.acting.add('a');
  handlers.shown.set('a', (s) => s.containerStatuses.some((c) => c.id.id === 'c1' && c.state === 'running'));
  // The started event lands before StartContainer returns: its entry is stamped before the sync's end.
  cache.set('uid-a', withMain('running'), undefined, clock.now());
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await clock.step(1);
  await workers.waitIdle('uid-a');
  assert.deepEqual(refreshes, [], 'no read of the pod after the sync');
  assert.equal(handlers.log.length, 2, 'the next sync ran on the event-built entry');
  assert.equal(handlers.statuses[1]?.containerStatuses[0]?.state, 'running');
});

test('an entry that does not show the sync\'s changes yet: the fresh read is asked, and the event that shows them, landing while the read is under way, lets the worker go on', async () => {
  const f = setup();
  const { clock, cache, handlers, workers, flush, refreshes } = f;
  handlers.acting.add('a');
  handlers.shown.set('a', (s) => s.containerStatuses.some((c) => c.id.id === 'c1' && c.state === 'running'));
  f.slowRead.gate = new Promise<void>(() => {}); // the read never lands
  cache.set('uid-a', withMain('created'), undefined, clock.now() - 5);
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await clock.step(1);
  await flush();
  assert.equal(refreshes.length, 1, 'a created container is not a started one: the pod is read');
  assert.equal(handlers.log.length, 1);
  // The started event (stamped at its own time, before the sync's end) replaces the created one.
  cache.set('uid-a', withMain('running'), undefined, clock.now() - 2);
  await workers.waitIdle('uid-a');
  assert.equal(handlers.log.length, 2);
  assert.equal(handlers.statuses[1]?.containerStatuses[0]?.state, 'running');
});

test('the event that shows the sync\'s changes, landing after the sync ended but before its read began, stands for the read (none is asked)', async () => {
  const f = setup();
  const { clock, cache, handlers, workers, flush, refreshes } = f;
  handlers.acting.add('a');
  handlers.shown.set('a', (s) => s.containerStatuses.some((c) => c.id.id === 'c1' && c.state === 'running'));
  cache.set('uid-a', withMain('created'), undefined, clock.now() - 5);
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await flush();
  assert.equal(handlers.log.length, 1, 'synced; its read waits for the clock to pass the sync');
  // The runtime sends the started event after StartContainer's reply: it lands while the read waits for the clock.
  cache.set('uid-a', withMain('running'), undefined, clock.now());
  await clock.step(1);
  await workers.waitIdle('uid-a');
  assert.deepEqual(refreshes, [], 'no read of the pod');
  assert.equal(handlers.log.length, 2);
  assert.equal(handlers.statuses[1]?.containerStatuses[0]?.state, 'running');
});
