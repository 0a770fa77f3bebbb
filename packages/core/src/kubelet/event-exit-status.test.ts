/**
 * A container's exit heard from a runtime event before the runtime's status shows it (containerd: the TaskExit
 * event comes before CRI ContainerStatus says EXITED) carries no termination message: the kubelet reads that
 * from the container's file (or log) with the runtime's status. Upstream "[sig-node] Container Runtime blackbox
 * test on terminated container ..." (test/e2e/common/node/runtime.go at v1.28) reads the status once the phase
 * is terminal and expects the message in it, so no status may be published from such an exit without it: the
 * message is read from the file whose place the runtime's read gave while the container ran (the mount at its
 * terminationMessagePath), or — no place known, or the log to stand in — the pod's status comes from the
 * runtime's read (the PLEG syncs the pod again with PodSync once it has it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerStatus, PodStatus } from '../container/types.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { BasicStatusManager } from '../status/status-manager.ts';
import { PodHandlers } from './pod-handlers.ts';
import type { PodHandlerContext } from './pod-handler-context.ts';
import { ReasonCache } from './reason-cache.ts';
import { HEARD_EXIT_WAIT_MS } from './heard-exits.ts';
import { heardExitMessage, podStatusFromEvent } from '../kuberuntime/runtime-status.ts';
import type { TerminationMessageFs } from '../kuberuntime/termination-message.ts';
import { eventPod, pod as runtimePod, setup as eventedPleg } from '../pleg/testing/evented-fixture.ts';

const pod: V1Pod = {
  metadata: { name: 'term', namespace: 'default', uid: 'uid-term' },
  spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', terminationMessagePath: '/dev/termination-log' }] },
};

function exited(extra: Partial<ContainerStatus>): PodStatus {
  const c: ContainerStatus = {
    id: { type: 'containerd', id: 'c1' }, name: 'c', state: 'exited', createdAt: 1_000, startedAt: 2_000, finishedAt: 3_000, exitCode: 0,
    reason: 'Completed', message: '', image: 'busybox', imageRef: 'sha256:b', imageId: 'sha256:b', restartCount: 0, hash: 'h', logPath: '/l/0.log', ...extra,
  };
  return { uid: 'uid-term', name: 'term', namespace: 'default', ips: ['10.0.0.2'], sandboxStatuses: [{ id: 'sb', state: 'ready', createdAt: 500, attempt: 0, ip: '10.0.0.2', additionalIps: [] }], containerStatuses: [c] };
}

function setup(runtimeSays: PodStatus, files: Record<string, string> = {}) {
  const clock = new FakeClock();
  const statusManager = new BasicStatusManager({ clock });
  const runtimeSyncs: string[] = [];
  const reads: string[] = [];
  const ctx = {
    clock,
    logger: nullLogger,
    statusManager,
    reasons: new ReasonCache(),
    stopped: () => false,
    hostIPs: ['192.168.1.10'],
    runtime: {
      syncPod: async (p: V1Pod) => (runtimeSyncs.push(p.metadata?.name ?? ''), { steps: [] }),
      getPodStatus: async (uid: string) => (reads.push(uid), structuredClone(runtimeSays)),
      heardExitMessage: (c: ContainerStatus) => heardExitMessage(c, messages(files)),
      backOffRemaining: () => 0,
    },
  } as unknown as PodHandlerContext;
  return { clock, handlers: new PodHandlers(ctx), statusManager, runtimeSyncs, reads };
}

const stillRunning = () => exited({ state: 'running', exitCode: 0, reason: '', finishedAt: 0 });

test('an exit heard from a runtime event the runtime does not show yet: no status, nothing decided, retried', async () => {
  const { clock, handlers, statusManager, runtimeSyncs } = setup(stillRunning());
  await clock.step(500);
  const r = await handlers.syncPod('sync', pod, exited({ exitHeardAt: clock.now() - 500 }));
  assert.deepEqual(r, { terminal: false, requeueAfterMs: HEARD_EXIT_WAIT_MS - 500 }, 'the pod is synced again once the wait is over');
  assert.equal(statusManager.getPodStatus('uid-term'), undefined, 'no status without the termination message');
  assert.deepEqual(runtimeSyncs, [], 'nothing is done in the runtime from it');
});

test("an exit heard from an event that the runtime shows: the status comes from the runtime's read, message included", async () => {
  const { clock, handlers, statusManager } = setup(exited({ message: 'DONE' }));
  const r = await handlers.syncPod('sync', pod, exited({ exitHeardAt: clock.now() }));
  assert.equal(r.terminal, true);
  const st = statusManager.getPodStatus('uid-term');
  assert.equal(st?.phase, 'Succeeded');
  assert.deepEqual([st?.containerStatuses?.[0]?.state?.terminated?.exitCode, st?.containerStatuses?.[0]?.state?.terminated?.message], [0, 'DONE']);
});

// The place of the message file as the runtime's read of the running container gave it (the mount at the
// annotated terminationMessagePath): makeMounts' <pod dir>/containers/<name>/<id>.
const kept = { hostPath: '/var/lib/kubelet/pods/uid-term/containers/c/x1', fallbackToLogsOnError: false };

test("an exit heard from an event, the message file's place known from the running container: published at once with the file's message, no runtime read", async () => {
  const { clock, handlers, statusManager, reads, runtimeSyncs } = setup(stillRunning(), { [kept.hostPath]: 'DONE' });
  const r = await handlers.syncPod('sync', pod, exited({ exitHeardAt: clock.now(), messageSource: kept }));
  assert.equal(r.terminal, true);
  assert.deepEqual(reads, [], 'no wait for the runtime to catch up');
  assert.deepEqual(runtimeSyncs, []);
  const st = statusManager.getPodStatus('uid-term');
  assert.deepEqual([st?.phase, st?.containerStatuses?.[0]?.state?.terminated?.exitCode, st?.containerStatuses?.[0]?.state?.terminated?.message], ['Succeeded', 0, 'DONE']);
});

test('an exit heard from an event whose message is to come from the log (FallbackToLogsOnError, exit 1, empty file): the runtime is waited for', async () => {
  const src = { ...kept, fallbackToLogsOnError: true };
  const { clock, handlers, statusManager, reads } = setup(stillRunning(), { [kept.hostPath]: '' });
  const r = await handlers.syncPod('sync', pod, exited({ exitHeardAt: clock.now(), exitCode: 1, reason: 'Error', messageSource: src }));
  assert.deepEqual(r, { terminal: false, requeueAfterMs: HEARD_EXIT_WAIT_MS });
  assert.deepEqual(reads, ['uid-term']);
  assert.equal(statusManager.getPodStatus('uid-term'), undefined);
  // With a message in the file the log is not read: no wait.
  const withFile = setup(stillRunning(), { [kept.hostPath]: 'bad config' });
  const r2 = await withFile.handlers.syncPod('sync', pod, exited({ exitHeardAt: clock.now(), exitCode: 1, reason: 'Error', messageSource: src }));
  assert.equal(r2.terminal, true);
  assert.equal(withFile.statusManager.getPodStatus('uid-term')?.containerStatuses?.[0]?.state?.terminated?.message, 'bad config');
});

test('a runtime that lags past the wait does not hold the pod: the exit as the event told it is used', async () => {
  const { clock, handlers, statusManager } = setup(stillRunning());
  const heardAt = clock.now();
  await clock.step(HEARD_EXIT_WAIT_MS);
  const r = await handlers.syncPod('sync', pod, exited({ exitHeardAt: heardAt }));
  assert.equal(r.terminal, true);
  assert.equal(statusManager.getPodStatus('uid-term')?.containerStatuses?.[0]?.state?.terminated?.exitCode, 0);
});

// The kubelet's evented PLEG (evented.go processCRIEvents → GeneratePodStatus, termination message read from the
// container's file; cache.Set at the event's created_at) and its pod worker (podCache.GetNewerThan(uid, lastSyncTime),
// then SyncPod from that status): an exit whose CRI event carries the whole pod is published with no runtime read.
test('an exit built from its CRI event: the pod worker syncs from the cache with no runtime read, termination message shown', async () => {
  const f = eventedPleg(undefined, {
    generatePodStatus: (p) => podStatusFromEvent(p, 'fake', messages({ '/h/msg': 'DONE' })),
  });
  f.rt.pods = [runtimePod('u1', [['c1', 'running']])];
  f.pleg.start();
  await f.clock.step(500);
  f.seen();
  const lastSyncTime = f.clock.now(); // the worker's last sync (the container was started)
  await f.clock.step(100);
  const readsBefore = f.rt.calls.length;
  const { handlers, statusManager, reads } = setup(stillRunning()); // the runtime's read would still say running
  const message = { path: '/dev/termination-log', hostPath: '/h/msg' };
  f.src.push(f.ev('exited', 'c1', { sandboxId: 'sb-u1', podUid: 'u1', exit: f.exit(0, 'Completed'), pod: eventPod('u1', [['c1', 'exited', 0]], message) }));
  await f.clock.step(0);
  assert.deepEqual(f.seen(), ['u1/ContainerDied/c1']);
  const { status } = await f.cache.getNewerThan('u1', lastSyncTime);
  const v1: V1Pod = {
    metadata: { name: 'pod-u1', namespace: 'default', uid: 'u1' },
    spec: { restartPolicy: 'Never', containers: [{ name: 'n-c1', image: 'i', terminationMessagePath: '/dev/termination-log' }] },
  };
  const r = await handlers.syncPod('sync', v1, status);
  assert.deepEqual([...f.rt.calls.slice(readsBefore), ...reads], [], 'no runtime read between the exit event and the publication');
  assert.equal(r.terminal, true);
  const st = statusManager.getPodStatus('u1');
  assert.deepEqual([st?.phase, st?.containerStatuses?.[0]?.state?.terminated?.exitCode, st?.containerStatuses?.[0]?.state?.terminated?.message], ['Succeeded', 0, 'DONE']);
  f.pleg.stop();
});

/** Termination-message files by host path (a recording fake of the host side). */
function messages(files: Record<string, string>): TerminationMessageFs {
  return {
    createMessageFile: async () => {},
    readAtMost: async (path) => (path in files ? Buffer.from(files[path] ?? '') : undefined),
    readLogTail: async () => '',
  };
}
