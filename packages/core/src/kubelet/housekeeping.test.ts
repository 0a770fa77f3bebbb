/**
 * Housekeeping asks the pod workers (kubelet_pods.go HandlePodCleanups): a runtime pod is killed as an orphan
 * unless a worker syncs or terminates it, and pod cgroups are kept for possiblyRunningPods — pods whose worker
 * syncs or terminates them, and pods the runtime runs — not for every desired pod.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RuntimePod } from '../container/types.ts';
import { nullLogger } from '../util/logger.ts';
import { BasicPodManager } from '../pod/basic-pod-manager.ts';
import { BasicStatusManager } from '../status/status-manager.ts';
import { PodHandlers } from './pod-handlers.ts';
import type { PodHandlerContext } from './pod-handler-context.ts';
import { ReasonCache } from './reason-cache.ts';
import { setupPodWorkers, v } from './testing/recording-pod-workers.ts';

const runtimePod = (name: string): RuntimePod => ({ uid: `uid-${name}`, name, namespace: 'default', containers: [], sandboxes: [] });

test('housekeeping: orphans killed unless a worker is in charge; cgroups kept for pods possibly running', async () => {
  const t = setupPodWorkers();
  const podManager = new BasicPodManager();
  let kept: string[] = [];
  const ctx = {
    clock: t.clock,
    logger: nullLogger,
    podManager,
    statusManager: new BasicStatusManager({ clock: t.clock }),
    reasons: new ReasonCache(),
    workers: () => t.workers,
    sourcesReady: () => true,
    stopped: () => false,
    runtime: { getPods: async () => ['a', 'dying', 'orphan'].map(runtimePod) },
    podCgroups: { ensurePod: async () => undefined, cleanup: async (uids: Iterable<string>) => void (kept = [...uids].sort()) },
  } as unknown as PodHandlerContext;
  const handlers = new PodHandlers(ctx);

  t.handlers.terminal.add('done');
  for (const name of ['a', 'done', 'dying']) {
    t.workers.updatePod({ updateType: 'create', pod: v(name, '1') });
    await t.workers.waitIdle(`uid-${name}`);
  }
  podManager.addPod(v('a', '1'));
  podManager.addPod(v('done', '1')); // still desired, but its worker terminated it (a completed pod)
  t.handlers.hold = true;
  t.workers.updatePod({ updateType: 'kill', pod: v('dying', '1') }); // removed from its source, still stopping
  await t.tick();

  handlers.handleHousekeeping();
  await handlers.housekeepingIdle();
  await t.flush();
  assert.ok(t.handlers.log.includes('terminating-runtime orphan'), 'the orphan is killed by its runtime view');
  assert.ok(!t.handlers.log.includes('terminating-runtime dying'), 'the terminating pod is left to its worker');
  assert.deepEqual(kept, ['uid-a', 'uid-dying', 'uid-orphan'], 'the terminated pod\'s cgroup may go, desired or not');
  t.handlers.release();
  await t.workers.waitIdle('uid-dying');
});
