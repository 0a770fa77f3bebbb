/**
 * The kubelet's active pods come from the pod workers (kubelet_pods.go filterOutInactivePods): a pod whose
 * worker finished terminating it is inactive; a terminal pod is inactive unless still being terminated; a pod
 * whose kill was requested still counts while its containers stop (they hold the node's resources). Admission
 * counts a new pod against exactly that list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { BasicPodManager } from '../pod/basic-pod-manager.ts';
import { BasicStatusManager } from '../status/status-manager.ts';
import type { AdmitNode, Admitter } from '../lifecycle/types.ts';
import { ActivePods } from './active-pods.ts';
import { PodHandlers } from './pod-handlers.ts';
import type { PodHandlerContext } from './pod-handler-context.ts';
import { createKubelet } from './kubelet.ts';
import { MemoryManifestFs } from './testing/memory-manifest-fs.ts';
import { setupPodWorkers, v } from './testing/recording-pod-workers.ts';

function setup() {
  const h = setupPodWorkers();
  const podManager = new BasicPodManager();
  const statusManager = new BasicStatusManager({ clock: h.clock });
  const active = new ActivePods({ podManager, podState: () => h.workers, podStatus: (uid) => statusManager.getPodStatus(uid) });
  const names = () => active.list().map((p) => p.metadata?.name ?? '').sort();
  const setPhase = (pod: V1Pod, phase: V1PodStatus['phase']) => statusManager.setPodStatus(pod, { phase });
  return { ...h, podManager, statusManager, active, names, setPhase };
}

test('a pod stays active from its admission until its worker terminated it, even once its kill was requested', async () => {
  const t = setup();
  const a = v('a', '1');
  t.podManager.addPod(a);
  t.workers.updatePod({ updateType: 'create', pod: a });
  t.setPhase(a, 'Running');
  await t.workers.waitIdle('uid-a');
  assert.deepEqual(t.names(), ['a']);

  t.handlers.hold = true;
  t.workers.updatePod({ updateType: 'kill', pod: a, killPodOptions: { evict: true } });
  assert.deepEqual(t.names(), ['a'], 'kill requested, phase still Running: its containers still run');
  t.setPhase(a, 'Failed');
  assert.deepEqual(t.names(), ['a'], 'Failed (Evicted) while being terminated: still active');

  await t.tick();
  t.handlers.release();
  await t.workers.waitIdle('uid-a');
  assert.equal(t.workers.isPodKnownTerminated('uid-a'), true);
  assert.deepEqual(t.names(), [], 'terminated by its worker: inactive');
});

test('a terminal pod is inactive unless being terminated: rejected at admission (no worker), or Succeeded by its config', async () => {
  const t = setup();
  const rejected = v('rejected', '1');
  t.podManager.addPod(rejected);
  t.setPhase(rejected, 'Failed');
  const done = v('done', '1');
  done.status = { phase: 'Succeeded' };
  t.podManager.addPod(done);
  const running = v('running', '1');
  running.status = { phase: 'Running' };
  t.podManager.addPod(running);
  assert.deepEqual(t.names(), ['running'], 'an unknown pod that is not terminal counts (just admitted, worker not started yet)');
  assert.equal(t.active.has('uid-rejected'), false);
  assert.equal(t.active.has('uid-running'), true);
  assert.equal(t.active.has('uid-nowhere'), false);

  t.handlers.hold = true;
  t.workers.updatePod({ updateType: 'kill', pod: done });
  assert.deepEqual(t.names(), ['done', 'running'], 'a terminal pod whose termination was requested counts until terminated');
  await t.flush();
  t.handlers.release();
  await t.workers.waitIdle('uid-done');
  assert.deepEqual(t.names(), ['running']);
});

test('admission counts the new pod against the active pods only (PodHandlers asks the kubelet, not a predicate of its own)', async () => {
  const t = setup();
  const seen: string[][] = [];
  const admit: Admitter = (_pod, others) => {
    seen.push(others.map((p) => p.metadata?.name ?? '').sort());
    return { admit: true };
  };
  const ctx = {
    clock: t.clock,
    logger: nullLogger,
    podManager: t.podManager,
    statusManager: t.statusManager,
    recorder: { event: () => undefined },
    admit,
    node: () => ({}) as AdmitNode,
    workers: () => t.workers,
    activePods: () => t.active.list(),
  } as unknown as PodHandlerContext;
  const handlers = new PodHandlers(ctx);
  handlers.handlePodAdditions([v('a', '1'), v('b', '1')]);
  await t.workers.waitIdle('uid-a');
  await t.workers.waitIdle('uid-b');
  t.handlers.hold = true;
  t.workers.updatePod({ updateType: 'kill', pod: v('a', '1'), killPodOptions: { evict: true } });
  t.setPhase(v('a', '1'), 'Failed'); // the eviction's status, set before the containers stopped
  handlers.handlePodAdditions([v('c', '1')]);
  await t.tick();
  t.handlers.release();
  await t.workers.waitIdle('uid-a');
  handlers.handlePodAdditions([v('d', '1')]);
  assert.deepEqual(seen, [[], ['a'], ['a', 'b'], ['b', 'c']], 'a counts while terminating (Failed or not), not once terminated');
});

test('the kubelet asks its own pod workers: an evicted pod counts while its containers stop, not once terminated', async () => {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock });
  const fs = new MemoryManifestFs('/m');
  const spec = { containers: [{ name: 'app', image: 'nodelet.local/host:latest', command: ['sleep', '1000'] }] };
  fs.put('web.json', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec }));
  const k = createKubelet(
    { cri, clock, logger: nullLogger, manifestFs: fs },
    {
      nodeName: 'node1', podManifestPath: '/m', fileCheckFrequencyMs: 20_000, httpCheckFrequencyMs: 20_000,
      podLogsDir: '/var/log/pods', rootDir: '/r', maxPods: 110, plegRelistPeriodMs: 1_000, plegRelistThresholdMs: 180_000,
      crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 }, runtimeEndpoint: 'fake://', kubeletVersion: 'v0',
    },
  );
  await k.start();
  for (let i = 0; i < 3; i++) await clock.step(1_000);
  const pod = k.getPod('default', 'web-node1');
  const uid = pod?.metadata?.uid ?? '';
  assert.equal(pod?.status?.phase, 'Running');
  assert.deepEqual(k.activePods.list().map((p) => p.metadata?.uid), [uid]);

  const release = cri.holdNext('stopContainer');
  k.workers.updatePod({ updateType: 'kill', pod: pod!, gracePeriodOverride: 0, killPodOptions: { evict: true } });
  for (let i = 0; i < 3 && cri.callsOf('stopContainer').length === 0; i++) await clock.step(1_000);
  assert.equal(cri.callsOf('stopContainer').length, 1, 'the worker is stopping the container');
  assert.equal(k.activePods.has(uid), true, 'still active while its container stops');
  release();
  await k.workers.waitIdle(uid);
  assert.equal(k.workers.isPodKnownTerminated(uid), true);
  assert.equal(k.activePods.has(uid), false);
  assert.deepEqual(k.activePods.list(), []);
  await k.stop();
});

test('a critical pod admitted by preemption: each victim gets the Preempting event and a kill that leaves it Failed / Preempting', async () => {
  const t = setup();
  const updates: Array<{ updateType: string; name: string; status?: V1PodStatus }> = [];
  const events: string[] = [];
  const victim = v('victim', '1');
  const ctx = {
    clock: t.clock,
    logger: nullLogger,
    podManager: t.podManager,
    statusManager: t.statusManager,
    recorder: { event: (ref: { name?: string }, type: string, reason: string, message: string) => events.push(`${ref.name} ${type} ${reason}: ${message}`) },
    admit: ((p) => (p.metadata?.name === 'critical' ? { admit: true, preempt: [victim] } : { admit: true })) as Admitter,
    node: () => ({}) as AdmitNode,
    workers: () => ({
      updatePod: (o: { updateType: string; pod: V1Pod; killPodOptions?: { podStatusFunc?: (s: V1PodStatus) => void } }) => {
        const status: V1PodStatus = { phase: 'Running' };
        o.killPodOptions?.podStatusFunc?.(status);
        updates.push({ updateType: o.updateType, name: o.pod.metadata?.name ?? '', ...(o.killPodOptions?.podStatusFunc ? { status } : {}) });
      },
    }),
    activePods: () => [victim],
  } as unknown as PodHandlerContext;
  new PodHandlers(ctx).handlePodAdditions([v('critical', '1')]);
  // preemption.go: Eventf(pod, Warning, events.PreemptContainer, message); status Failed, reason Preempting.
  assert.deepEqual(events, ['victim Warning Preempting: Preempted in order to admit critical pod']);
  assert.deepEqual(updates, [
    { updateType: 'kill', name: 'victim', status: { phase: 'Failed', reason: 'Preempting', message: 'Preempted in order to admit critical pod' } },
    { updateType: 'create', name: 'critical' },
  ]);
});
