/**
 * The pod workers as PodStateProvider, across a pod's lifecycle. Expected answers are those of the kubelet's
 * pod_workers.go: IsPodTerminationRequested (terminatingAt set), ShouldPodContainersBeTerminating (the worker
 * started terminating), ShouldPodRuntimeBeRemoved (terminated), ShouldPodContentBeRemoved (evicted, or deleted
 * and terminated), IsPodKnownTerminated; an unknown pod: not requested, and removable once SyncKnownPods ran.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodWorkers } from './pod-workers.ts';
import { setupPodWorkers, v } from './testing/recording-pod-workers.ts';

function ask(w: PodWorkers, uid: string) {
  return {
    requested: w.isPodTerminationRequested(uid),
    containersTerminating: w.shouldPodContainersBeTerminating(uid),
    runtimeRemovable: w.shouldPodRuntimeBeRemoved(uid),
    contentRemovable: w.shouldPodContentBeRemoved(uid),
    knownTerminated: w.isPodKnownTerminated(uid),
  };
}

const none = { requested: false, containersTerminating: false, runtimeRemovable: false, contentRemovable: false, knownTerminated: false };
const unknownAfterSync = { requested: false, containersTerminating: true, runtimeRemovable: true, contentRemovable: true, knownTerminated: false };

const deleted = (name: string) => {
  const p = v(name, '1');
  p.metadata!.deletionTimestamp = new Date(0);
  p.metadata!.deletionGracePeriodSeconds = 30;
  return p;
};

test('an unknown pod: nothing may be removed until the workers synced the known pods (every source ready), then all of it', () => {
  const { workers } = setupPodWorkers();
  assert.deepEqual(ask(workers, 'uid-x'), none);
  workers.syncKnownPods(new Set(['uid-other']));
  assert.deepEqual(ask(workers, 'uid-x'), unknownAfterSync);
});

test('API deletion: syncing → kill requested → terminating → terminated → finished → forgotten', async () => {
  const { handlers, workers, flush } = setupPodWorkers();
  handlers.hold = true;
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await flush();
  assert.deepEqual(handlers.log, ['sync a create v1']);
  assert.deepEqual(ask(workers, 'uid-a'), none, 'syncing');

  workers.updatePod({ updateType: 'kill', pod: deleted('a') });
  assert.deepEqual(ask(workers, 'uid-a'), { ...none, requested: true }, 'kill requested while syncPod runs: it may still start containers');

  handlers.release();
  await flush();
  assert.deepEqual(handlers.log, ['sync a create v1', 'terminating a -']);
  assert.deepEqual(ask(workers, 'uid-a'), { ...none, requested: true, containersTerminating: true }, 'terminating');

  handlers.release();
  await workers.waitIdle('uid-a');
  assert.deepEqual(handlers.log, ['sync a create v1', 'terminating a -', 'terminated a']);
  const done = { requested: true, containersTerminating: true, runtimeRemovable: true, contentRemovable: true, knownTerminated: true };
  assert.deepEqual(ask(workers, 'uid-a'), done, 'terminated and deleted: runtime and content may go');

  workers.syncKnownPods(new Set(['uid-a']));
  assert.deepEqual(ask(workers, 'uid-a'), done, 'still desired: still known');
  workers.syncKnownPods(new Set());
  assert.deepEqual(ask(workers, 'uid-a'), unknownAfterSync, 'forgotten');
});

test('removed from its source (a kill without deletion): the runtime may go once terminated, the content only once the worker is forgotten', async () => {
  const { workers, tick } = setupPodWorkers();
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  workers.updatePod({ updateType: 'kill', pod: v('a', '1') });
  await tick();
  await workers.waitIdle('uid-a');
  assert.deepEqual(ask(workers, 'uid-a'), { requested: true, containersTerminating: true, runtimeRemovable: true, contentRemovable: false, knownTerminated: true });
  workers.syncKnownPods(new Set());
  assert.equal(workers.shouldPodContentBeRemoved('uid-a'), true);
});

test('eviction: the content may go as soon as termination is requested, the runtime once terminated', async () => {
  const { handlers, workers, tick } = setupPodWorkers();
  workers.updatePod({ updateType: 'create', pod: v('a', '1') });
  await workers.waitIdle('uid-a');
  handlers.hold = true;
  workers.updatePod({ updateType: 'kill', pod: v('a', '1'), gracePeriodOverride: 0, killPodOptions: { evict: true } });
  assert.deepEqual(ask(workers, 'uid-a'), { requested: true, containersTerminating: true, runtimeRemovable: false, contentRemovable: true, knownTerminated: false }, 'an idle worker picks the kill up at once');
  await tick();
  handlers.release();
  await workers.waitIdle('uid-a');
  assert.deepEqual(handlers.log, ['sync a create v1', 'terminating a 0', 'terminated a']);
  assert.deepEqual(ask(workers, 'uid-a'), { requested: true, containersTerminating: true, runtimeRemovable: true, contentRemovable: true, knownTerminated: true });
});

test('a pod that reached a terminal phase: its sync requests the termination; not deleted, so its content stays', async () => {
  const { handlers, workers } = setupPodWorkers();
  handlers.terminal.add('job');
  workers.updatePod({ updateType: 'create', pod: v('job', '1') });
  await workers.waitIdle('uid-job');
  assert.deepEqual(handlers.log, ['sync job create v1', 'terminating job -', 'terminated job']);
  assert.deepEqual(ask(workers, 'uid-job'), { requested: true, containersTerminating: true, runtimeRemovable: true, contentRemovable: false, knownTerminated: true });
});

test('an orphaned runtime pod (no config) counts as deleted once its worker killed it', async () => {
  const { handlers, workers } = setupPodWorkers();
  workers.updatePod({ updateType: 'kill', runningPod: { uid: 'orphan', name: 'o', namespace: 'default', containers: [], sandboxes: [] } });
  assert.equal(workers.isPodTerminationRequested('orphan'), true);
  await workers.waitIdle('orphan');
  assert.deepEqual(handlers.log, ['terminating-runtime o']);
  assert.deepEqual(ask(workers, 'orphan'), { requested: true, containersTerminating: true, runtimeRemovable: true, contentRemovable: true, knownTerminated: true });
});
