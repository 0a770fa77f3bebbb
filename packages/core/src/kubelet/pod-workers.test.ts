import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makePod } from '../kuberuntime/testing/builders.ts';
import { emptyStatus, setupPodWorkers as setup, v } from './testing/recording-pod-workers.ts';

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
