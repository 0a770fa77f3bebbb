// Sidecar termination order on a pod kill (kuberuntime_termination_order_test.go, v1.29: TestTerminationOrdering-
// SidecarStopAfterMain, ...SidecarsInReverseOrder, ...ObeysGrace): app containers are stopped first, then the
// sidecars in reverse order of declaration; a sidecar waits at most its grace period, and StopContainer gets what
// is left of it (at least 2 s). Driven through killPodWithDeps with a fake clock and a CRI whose stops finish
// when the test says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import type { RuntimePod } from '../container/types.ts';
import { killPodWithDeps, type KillDeps } from './kill.ts';
import { container, makePod } from './testing/builders.ts';

function fixture(pod: V1Pod, names: string[]) {
  const clock = new FakeClock();
  const calls: Array<[string, number]> = [];
  const finish = new Map<string, () => void>();
  const cri = {
    stopContainer: (req: { containerId: string; timeout: number }) =>
      new Promise<Record<string, never>>((resolve) => {
        calls.push([req.containerId, req.timeout]);
        finish.set(req.containerId, () => resolve({}));
      }),
    stopPodSandbox: async () => {
      calls.push(['sandbox', 0]);
      return {};
    },
    containerStatus: async () => ({}),
  } as unknown as KillDeps['cri'];
  const deps: KillDeps = { cri, events: () => {}, timed: (_op, fn) => fn(), clock };
  const running: RuntimePod = {
    uid: 'u',
    name: 'p',
    namespace: 'default',
    containers: names.map((n) => ({ id: { type: 'fake', id: n }, name: n, image: '', imageRef: '', hash: '', state: 'running', createdAt: 1 })),
    sandboxes: [{ id: { type: 'fake', id: 'sb' }, state: 'ready', createdAt: 1, attempt: 0 }],
  };
  const done = killPodWithDeps(deps, pod, running);
  const stop = async (name: string, afterMs = 0) => {
    await clock.step(afterMs);
    finish.get(name)?.();
    await clock.step(0);
  };
  return { clock, calls, done, stop, order: () => calls.map((c) => c[0]) };
}

const side = (name: string) => container(name, { restartPolicy: 'Always' });

test('termination order: app containers first, then sidecars in reverse order of declaration', async () => {
  const pod = makePod({ initContainers: [side('sc1'), container('setup'), side('sc2'), side('sc3')], containers: [container('main1'), container('main2')], grace: 30 });
  const f = fixture(pod, ['sc1', 'sc2', 'sc3', 'main1', 'main2']);
  await f.clock.step(0);
  assert.deepEqual(f.order(), ['main1', 'main2'], 'sidecars wait for the app containers');
  await f.stop('main1', 1000);
  assert.deepEqual(f.order(), ['main1', 'main2'], 'and for every one of them');
  await f.stop('main2', 3000);
  assert.deepEqual(f.order(), ['main1', 'main2', 'sc3'], 'the last sidecar goes first');
  await f.stop('sc3', 1000);
  assert.deepEqual(f.order(), ['main1', 'main2', 'sc3', 'sc2']);
  await f.stop('sc2');
  await f.stop('sc1');
  await f.done;
  // Each gets the grace period less the whole seconds it waited: sc3 4 s, sc2 5 s (sc1 5 s too).
  assert.deepEqual(f.calls, [['main1', 30], ['main2', 30], ['sc3', 26], ['sc2', 25], ['sc1', 25], ['sandbox', 0]]);
});

test('termination order: a sidecar waits at most its grace period, then stops with the minimum 2 s', async () => {
  const pod = makePod({ initContainers: [side('sc1'), side('sc2')], containers: [container('main')], grace: 10 });
  const f = fixture(pod, ['sc1', 'sc2', 'main']);
  await f.clock.step(9_999);
  assert.deepEqual(f.order(), ['main'], 'not before the grace period ran out');
  await f.clock.step(1);
  // Both sidecars' waits ran out at the same moment: stopped side by side, in no particular order.
  assert.deepEqual([f.calls[0], ...f.calls.slice(1).sort()], [['main', 10], ['sc1', 2], ['sc2', 2]]);
  for (const n of ['main', 'sc2', 'sc1']) await f.stop(n);
  await f.done;
});

test('termination order: containers that do not run are not waited for', async () => {
  const pod = makePod({ initContainers: [side('sc1'), side('sc2')], containers: [container('main')], grace: 30 });
  const f = fixture(pod, ['sc1']);
  await f.clock.step(0);
  assert.deepEqual(f.calls, [['sc1', 30]]);
  await f.stop('sc1');
  await f.done;
});

test('termination order: a pod without sidecars stops all its containers at once', async () => {
  const pod = makePod({ initContainers: [container('setup')], containers: [container('a'), container('b')], grace: 30 });
  const f = fixture(pod, ['a', 'b']);
  await f.clock.step(0);
  assert.deepEqual(f.order(), ['a', 'b']);
  await f.stop('a');
  await f.stop('b');
  await f.done;
});
