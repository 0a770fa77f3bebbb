/**
 * A container's exit heard from a runtime event before the runtime's status shows it (containerd: the TaskExit
 * event comes before CRI ContainerStatus says EXITED) carries no termination message: the kubelet reads that
 * from the container's file (or log) with the runtime's status. Upstream "[sig-node] Container Runtime blackbox
 * test on terminated container ..." (test/e2e/common/node/runtime.go at v1.28) reads the status once the phase
 * is terminal and expects the message in it, so no status may be published from such an exit: the pod's status
 * comes from the runtime's read (the PLEG syncs the pod again with PodSync once it has it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerStatus, PodStatus } from '../container/types.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { BasicStatusManager } from '../status/status-manager.ts';
import { PodHandlers, type PodHandlerContext } from './pod-handlers.ts';
import { ReasonCache } from './reason-cache.ts';
import { HEARD_EXIT_WAIT_MS } from './heard-exits.ts';

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

function setup(runtimeSays: PodStatus) {
  const clock = new FakeClock();
  const statusManager = new BasicStatusManager({ clock });
  const runtimeSyncs: string[] = [];
  const ctx = {
    clock,
    logger: nullLogger,
    statusManager,
    reasons: new ReasonCache(),
    stopped: () => false,
    hostIPs: ['192.168.1.10'],
    runtime: {
      syncPod: async (p: V1Pod) => (runtimeSyncs.push(p.metadata?.name ?? ''), { steps: [] }),
      getPodStatus: async () => structuredClone(runtimeSays),
      backOffRemaining: () => 0,
    },
  } as unknown as PodHandlerContext;
  return { clock, handlers: new PodHandlers(ctx), statusManager, runtimeSyncs };
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

test('a runtime that lags past the wait does not hold the pod: the exit as the event told it is used', async () => {
  const { clock, handlers, statusManager } = setup(stillRunning());
  const heardAt = clock.now();
  await clock.step(HEARD_EXIT_WAIT_MS);
  const r = await handlers.syncPod('sync', pod, exited({ exitHeardAt: heardAt }));
  assert.equal(r.terminal, true);
  assert.equal(statusManager.getPodStatus('uid-term')?.containerStatuses?.[0]?.state?.terminated?.exitCode, 0);
});
