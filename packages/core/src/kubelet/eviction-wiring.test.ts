import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { InMemoryEventBus } from '../events/bus.ts';
import { KubeletEventRecorder } from '../events/recorder.ts';
import { BasicPodManager } from '../pod/basic-pod-manager.ts';
import { BasicStatusManager } from '../status/status-manager.ts';
import { FakeRuntime, HOST_IMAGE } from '../cri/testing/fake-runtime.ts';
import type { Summary } from '../stats/summary-types.ts';
import type { PodWorkers, UpdatePodOptions } from './pod-workers.ts';
import { EvictionWiring, type EvictionWiringConfig } from './eviction-wiring.ts';
import { FakePodState } from '../testing/fake-pod-state.ts';

const Mi = 2 ** 20;

function setup(config: EvictionWiringConfig = { evictionHard: { 'memory.available': '100Mi' } }) {
  const clock = new FakeClock();
  const bus = new InMemoryEventBus({ clock, logger: nullLogger });
  const recorder = new KubeletEventRecorder({ bus, clock, logger: nullLogger });
  const podManager = new BasicPodManager();
  const statusManager = new BasicStatusManager({ clock, bus, logger: nullLogger });
  const cri = new FakeRuntime({ clock });
  const updates: UpdatePodOptions[] = [];
  const phases = new Map<string, 'syncing' | 'terminated'>();
  const workers = {
    updatePod: (o: UpdatePodOptions) => {
      updates.push(o);
      if (o.updateType === 'kill' && o.pod) phases.set(o.pod.metadata?.uid ?? '', 'terminated');
    },
    waitIdle: async () => undefined,
  } as unknown as PodWorkers;
  const podState = new FakePodState();
  const mem = { avail: 50 * Mi };
  const sources = { ready: true };
  const summary = async (): Promise<Summary> => {
    const time = new Date(clock.now()).toISOString();
    return { node: { nodeName: 'n', startTime: time, memory: { time, availableBytes: mem.avail, workingSetBytes: 900 * Mi }, runtime: { imageFs: { time, capacityBytes: 100, availableBytes: 50 } } }, pods: [] };
  };
  const wiring = new EvictionWiring(
    { cri, clock, logger: nullLogger, bus, recorder, nodeName: 'n', podLogsDir: '/var/log/pods', podManager, statusManager, workers: () => workers, podState: () => podState, activePods: () => podManager.getPods().filter((p) => phases.get(p.metadata?.uid ?? '') !== 'terminated'), sourcesReady: () => sources.ready, summary },
    { imageGc: { minAgeMs: 0 }, ...config },
  );
  return { clock, bus, podManager, statusManager, cri, updates, phases, podState, wiring, mem, sources };
}

const apiPod = (name: string): V1Pod => ({ metadata: { name, namespace: 'default', uid: name }, spec: { containers: [{ name: 'c', image: 'x' }] } });

test('an evicted pod is killed by its pod worker, the kill carrying Failed / Evicted and the DisruptionTarget condition', async () => {
  const w = setup();
  const pod = apiPod('victim');
  w.podManager.addPod(pod);
  w.phases.set('victim', 'syncing');
  w.wiring.start();
  await w.clock.step(0);
  assert.deepEqual(w.updates.map((u) => [u.updateType, u.pod?.metadata?.name, u.gracePeriodOverride, u.killPodOptions?.evict]), [['kill', 'victim', 0, true]]);
  assert.equal(w.statusManager.getPodStatus('victim'), undefined, 'the wiring writes no status: the pod worker applies the kill\'s');
  // What the pod worker does with the kill's status change (kubelet KillPodOptions.PodStatusFunc).
  const st: V1PodStatus = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  w.updates[0]?.killPodOptions?.podStatusFunc?.(st);
  assert.equal(st?.phase, 'Failed');
  assert.equal(st?.reason, 'Evicted');
  assert.equal(st?.message, 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. ');
  assert.deepEqual(st?.conditions?.map((c) => [c.type, c.status, c.reason]), [['Ready', 'True', undefined], ['DisruptionTarget', 'True', 'TerminationByKubelet']]);
  const evs = w.bus.recent();
  assert.ok(evs.some((e) => e.type === 'pressure' && e.conditions.includes('MemoryPressure')));
  assert.ok(evs.some((e) => e.type === 'k8sEvent' && e.reason === 'Evicted' && e.involvedObject.name === 'victim'));
  assert.deepEqual(w.wiring.pressure(), ['MemoryPressure']);
  assert.equal(w.wiring.history().length, 1);
  w.wiring.stop();
});

test('no eviction pass before the pod sources delivered: a restart under pressure admits its pods first, then evicts', async () => {
  const w = setup({ monitoringPeriodMs: 10_000 });
  w.sources.ready = false;
  const pod = apiPod('victim');
  w.podManager.addPod(pod);
  w.phases.set('victim', 'syncing');
  w.wiring.start();
  await w.clock.step(0);
  assert.deepEqual(w.wiring.pressure(), [], 'no MemoryPressure while the sources have not delivered (admission would refuse with it)');
  assert.equal(w.updates.length, 0);
  w.sources.ready = true;
  await w.clock.step(10_000);
  assert.deepEqual(w.wiring.pressure(), ['MemoryPressure']);
  assert.deepEqual(w.updates.map((u) => [u.updateType, u.pod?.metadata?.name]), [['kill', 'victim']]);
  w.wiring.stop();
});

test('sources that never deliver (API server unreachable) delay the first eviction pass by one monitoring period at most', async () => {
  const w = setup({ monitoringPeriodMs: 10_000 });
  w.sources.ready = false;
  w.podManager.addPod(apiPod('victim'));
  w.phases.set('victim', 'syncing');
  w.wiring.start();
  await w.clock.step(9_000);
  assert.deepEqual(w.wiring.pressure(), []);
  await w.clock.step(1_000);
  assert.deepEqual(w.wiring.pressure(), ['MemoryPressure']);
  w.wiring.stop();
});

test('gc.images / gc.containers run now, return what they removed and publish a gc event', async () => {
  const w = setup();
  w.mem.avail = 900 * Mi;
  w.cri.addImage('unused', 1234);
  const r = await w.wiring.images();
  assert.deepEqual(r.removed, ['unused:latest']);
  assert.equal(r.freedBytes, 1234);
  const c = await w.wiring.containers();
  assert.deepEqual(c.removed, []);
  const gcEvents = w.bus.recent({ types: ['gc'] });
  assert.deepEqual(gcEvents.map((e) => e.type === 'gc' && [e.kind, e.trigger, e.removed.length]), [['images', 'manual', 1], ['containers', 'manual', 0]]);
  assert.deepEqual(Object.keys(w.wiring.last()).sort(), ['containers', 'images']);
  assert.equal(w.wiring.policies().image.highThresholdPercent, 85);
});

test('invalid thresholds throw naming the kubelet reason', () => {
  assert.throws(
    () =>
      new EvictionWiring(
        { clock: new FakeClock(), logger: nullLogger, statusManager: {} } as never,
        { evictionHard: { 'memory.available': '110%' } },
      ),
    /eviction percentage threshold memory.available must be <= 100%: 110%/,
  );
});

test('container GC: periodic and manual runs keep a terminated pod\'s newest dead container, disk reclaim removes it', async () => {
  // imagefs.available 50 % < 60 %: the eviction manager reclaims node-level first (DeleteAllUnusedContainers).
  const w = setup({ evictionHard: { 'imagefs.available': '60%' } });
  const { podSandboxId } = await w.cri.runPodSandbox({ config: { metadata: { name: 'done', uid: 'done', namespace: 'default', attempt: 0 } } });
  for (const attempt of [0, 1]) {
    await w.clock.step(1_000);
    const labels = { 'io.kubernetes.pod.uid': 'done', 'io.kubernetes.container.name': 'c' };
    const { containerId } = await w.cri.createContainer({ podSandboxId, config: { metadata: { name: 'c', attempt }, image: { image: HOST_IMAGE }, labels } });
    await w.cri.startContainer({ containerId });
    w.cri.exitContainer(containerId, { exitCode: 0 });
  }
  w.podState.terminated.add('done'); // terminated, not deleted: its content stays (kubectl logs --previous)
  assert.equal((await w.wiring.containers()).removed.length, 1);
  assert.equal(w.cri.containers.size, 1);
  w.wiring.start();
  await w.clock.step(0);
  w.wiring.stop();
  assert.equal(w.cri.containers.size, 0);
  const gc = w.bus.recent({ types: ['gc'] }).map((e) => e.type === 'gc' && [e.kind, e.trigger, e.removed.length]);
  assert.deepEqual(gc, [['containers', 'manual', 1], ['containers', 'eviction', 1], ['images', 'eviction', 0]]);
});

test('container GC runs at start (the kubelet\'s wait.Until runs at once), then every minute', async () => {
  const w = setup({ evictionHard: { 'memory.available': '1Mi' } });
  const { podSandboxId } = await w.cri.runPodSandbox({ config: { metadata: { name: 'web', uid: 'web', namespace: 'default', attempt: 0 } } });
  const die = async (attempt: number) => {
    const labels = { 'io.kubernetes.pod.uid': 'web', 'io.kubernetes.container.name': 'c' };
    const { containerId } = await w.cri.createContainer({ podSandboxId, config: { metadata: { name: 'c', attempt }, image: { image: HOST_IMAGE }, labels } });
    await w.cri.startContainer({ containerId });
    w.cri.exitContainer(containerId, { exitCode: 1 });
  };
  for (const attempt of [0, 1]) await die(attempt);
  w.wiring.start();
  await w.clock.step(0);
  assert.equal(w.cri.containers.size, 1, 'MaxPerPodContainer 1 at once');
  for (const attempt of [2, 3]) await die(attempt);
  await w.clock.step(59_000);
  assert.equal(w.cri.containers.size, 3);
  await w.clock.step(1_000);
  assert.equal(w.cri.containers.size, 1);
  w.wiring.stop();
  assert.deepEqual(w.bus.recent({ types: ['gc'] }).map((e) => e.type === 'gc' && [e.kind, e.trigger, e.removed.length]), [['containers', 'periodic', 1], ['containers', 'periodic', 2]]);
});
