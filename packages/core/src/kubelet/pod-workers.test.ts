import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodStatus } from '../container/types.ts';
import { makePod } from '../kuberuntime/testing/builders.ts';
import { setupPodWorkers as setup, v } from './testing/recording-pod-workers.ts';

test('updates arriving during a sync are coalesced: the latest wins', async () => {
  const { handlers, workers, flush, tick } = setup();
  handlers.hold = true;
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await flush();
  workers.updatePod({ updateType: 'update', pod: v('a', '2') });
  workers.updatePod({ updateType: 'update', pod: v('a', '3') });
  handlers.release();
  await tick();
  handlers.release();
  await workers.waitIdle('uid-a');
  assert.deepEqual(handlers.log, ['sync a create v1', 'sync a update v3']);
});

test('serial per UID, parallel across UIDs', async () => {
  const { handlers, workers, flush } = setup();
  handlers.hold = true;
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  workers.updatePod({ updateType: 'create', pod: v('b', '1') });
  workers.updatePod({ updateType: 'update', pod: v('a', '2') });
  await flush();
  assert.equal(handlers.active, 2, 'a and b sync concurrently');
  assert.equal(handlers.log.filter((l) => l.startsWith('sync a')).length, 1, 'a waits for its first sync');
  handlers.hold = false;
  handlers.release();
  await flush();
  assert.ok(handlers.maxActive <= 2);
});

test('a sync waits for a status newer than the previous sync', async () => {
  const { handlers, workers, flush, tick } = setup();
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await flush();
  assert.equal(handlers.log.length, 1, 'blocked until the cache moves on');
  await tick();
  await workers.waitIdle('uid-a');
  assert.equal(handlers.log.length, 2);
});

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

test('kill: terminating with the grace period override, then terminated, then finished', async () => {
  const { handlers, workers, flush, tick } = setup();
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  workers.updatePod({ updateType: 'kill', pod: v('a', '1'), gracePeriodOverride: 3 });
  workers.updatePod({ updateType: 'update', pod: v('a', '2') });
  await tick();
  await workers.waitIdle('uid-a');
  assert.deepEqual(handlers.log, ['sync a create v1', 'terminating a 3', 'terminated a']);
  assert.equal(workers.isPodKnownTerminated('uid-a'), true);
  workers.updatePod({ updateType: 'sync', pod: v('a', '1') });
  await flush();
  assert.equal(handlers.log.length, 3, 'finished pods are not synced');
  workers.syncKnownPods(new Set());
  assert.equal(workers.isPodKnownTerminated('uid-a'), false, 'forgotten');
});

test('a terminal sync moves the pod to terminating; orphans are killed by their runtime view', async () => {
  const { handlers, workers, tick } = setup();
  handlers.terminal.add('job');
  workers.updatePod({ updateType: 'create', pod: v('job', '1') });
  await workers.waitIdle('uid-job');
  assert.deepEqual(handlers.log, ['sync job create v1', 'terminating job -', 'terminated job']);
  workers.updatePod({ updateType: 'kill', runningPod: { uid: 'orphan', name: 'o', namespace: 'default', containers: [], sandboxes: [] } });
  await tick();
  await workers.waitIdle('orphan');
  assert.ok(handlers.log.includes('terminating-runtime o'));
});

test('resync queue: due after the resync interval', async () => {
  const { clock, workers } = setup();
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  assert.deepEqual(workers.takeDue(clock.now()), []);
  assert.deepEqual(workers.takeDue(clock.now() + 60_000), ['uid-a']);
});

test("resync and retry are jittered as the kubelet's wait.Jitter(period, 0.5): period + random × 0.5 × period", async () => {
  // pod_workers.go: workerResyncIntervalJitterFactor = workerBackOffPeriodJitterFactor = 0.5.
  const draws = [0.999, 0.5];
  const { clock, cache, workers } = setup(() => draws.shift() ?? 0);
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  assert.deepEqual(workers.takeDue(clock.now() + 89_969), [], 'not due before 60 s + 0.999 × 30 s');
  assert.deepEqual(workers.takeDue(clock.now() + 89_970), ['uid-a']);
  const pod = makePod({ name: 'p', uid: 'u1' });
  cache.set('u1', { ...emptyStatus('u1') }, new Error('ContainerStatus: deadline exceeded'), clock.now());
  workers.updatePod({ updateType: 'create', pod });
  await workers.waitIdle('u1');
  assert.deepEqual(workers.takeDue(clock.now() + 12_499), [], 'a retry after 10 s + 0.5 × 5 s');
  assert.deepEqual(workers.takeDue(clock.now() + 12_500), ['u1']);
});

test('a pod whose status PLEG could not read is not synced (it is retried after the back-off)', async () => {
  const { clock, cache, handlers, workers, flush } = setup();
  const pod = makePod({ name: 'p', uid: 'u1' });
  cache.set('u1', { ...emptyStatus('u1') }, new Error('ContainerStatus: deadline exceeded'), clock.now());
  workers.updatePod({ updateType: 'create', pod });
  await flush();
  assert.deepEqual(handlers.log, []);
  await workers.waitIdle('u1');
  assert.deepEqual(workers.takeDue(clock.now() + 10_000), ['u1'], 'requeued after the back-off');
  await clock.step(1);
  cache.set('u1', { ...emptyStatus('u1') }, undefined, clock.now());
  workers.updatePod({ updateType: 'sync', pod });
  await flush();
  assert.deepEqual(handlers.log, ['sync p sync v']);
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

function emptyStatus(uid: string): PodStatus {
  return { uid, name: 'p', namespace: 'default', ips: [], sandboxStatuses: [], containerStatuses: [], timestamp: 0 } as unknown as PodStatus;
}

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

test('a deleted pod whose termination step failed is retried after the back-off by housekeeping, until it finishes (no source sends it another update)', async () => {
  const { clock, cache, handlers, workers, flush, tick } = setup();
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  handlers.failTerminating.set('a', 2);
  workers.updatePod({ updateType: 'kill', pod: v('a', '1') });
  await tick();
  await workers.waitIdle('uid-a');
  assert.deepEqual(handlers.log, ['sync a create v1', 'terminating a -']);
  assert.equal(workers.isPodKnownTerminated('uid-a'), false);
  // The pod is gone from every source: the resync queue would sync only desired pods.
  workers.syncKnownPods(new Set());
  await flush();
  assert.equal(handlers.log.length, 2, 'not before the back-off');
  await clock.step(10_000);
  cache.updateTime(clock.now());
  workers.syncKnownPods(new Set());
  await tick();
  await workers.waitIdle('uid-a');
  assert.deepEqual(handlers.log.slice(2), ['terminating a -'], 'second attempt, fails again');
  await clock.step(10_000);
  cache.updateTime(clock.now());
  workers.syncKnownPods(new Set());
  await tick();
  await workers.waitIdle('uid-a');
  assert.deepEqual(handlers.log.slice(3), ['terminating a -', 'terminated a']);
  assert.equal(workers.isPodKnownTerminated('uid-a'), true);
  assert.equal(workers.shouldPodRuntimeBeRemoved('uid-a'), true);
  workers.syncKnownPods(new Set());
  assert.deepEqual(workers.knownUids(), [], 'then forgotten');
});
