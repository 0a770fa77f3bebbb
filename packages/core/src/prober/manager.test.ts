import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Container, V1ContainerStatus, V1PodStatus } from '@kubernetes/client-node';
import { RecordingEventRecorder } from '../events/testing/recording-recorder.ts';
import { FakeClock } from '../util/clock.ts';
import { KubeletProbeManager, type ProbeManagerConfig } from './manager.ts';
import { execProbe, FakeProbeRunner, FakeStatusProvider, makePod, RecordingBus } from './testing/fakes.ts';

function setup(containers: V1Container[], config: ProbeManagerConfig = {}) {
  const clock = new FakeClock();
  const runner = new FakeProbeRunner();
  const status = new FakeStatusProvider();
  const recorder = new RecordingEventRecorder();
  const bus = new RecordingBus();
  const m = new KubeletProbeManager({ clock, runner, statusProvider: status, recorder, bus, random: () => 0 }, config);
  const pod = makePod(containers);
  for (const c of containers) status.running('uid-1', c.name, `${c.name}-1`, clock.now());
  m.start();
  return { clock, runner, status, recorder, bus, m, pod };
}

const running = (name: string, id: string): V1ContainerStatus => ({
  name,
  containerID: `containerd://${id}`,
  image: 'img',
  imageID: 'img',
  ready: false,
  restartCount: 0,
  state: { running: { startedAt: new Date(0) } },
});

interface StatusCase {
  name: string;
  container: V1Container;
  /** Run the worker once before updatePodStatus (script of the exec command). */
  script?: Array<'s' | 'f'>;
  status: V1ContainerStatus;
  expect: { started: boolean; ready: boolean };
  triggersReadiness?: boolean;
}

const statusCases: StatusCase[] = [
  { name: 'no probes: started and ready', container: { name: 'app', image: 'img' }, status: running('app', 'app-1'), expect: { started: true, ready: true } },
  {
    name: 'readiness not succeeded: not ready, and it is triggered at once',
    container: { name: 'app', image: 'img', readinessProbe: execProbe('readiness', { periodSeconds: 60, failureThreshold: 1 }) },
    script: ['f'],
    status: running('app', 'app-1'),
    expect: { started: true, ready: false },
    triggersReadiness: true,
  },
  {
    name: 'readiness succeeded: ready',
    container: { name: 'app', image: 'img', readinessProbe: execProbe('readiness') },
    script: ['s'],
    status: running('app', 'app-1'),
    expect: { started: true, ready: true },
  },
  {
    name: 'startup not succeeded: neither started nor ready',
    container: { name: 'app', image: 'img', startupProbe: execProbe('startup'), readinessProbe: execProbe('readiness') },
    script: ['f'],
    status: running('app', 'app-1'),
    expect: { started: false, ready: false },
  },
  {
    name: 'not running: neither started nor ready',
    container: { name: 'app', image: 'img' },
    status: { ...running('app', 'app-1'), state: { waiting: { reason: 'CrashLoopBackOff' } } },
    expect: { started: false, ready: false },
  },
];

for (const tc of statusCases) {
  test(`updatePodStatus: ${tc.name}`, async () => {
    const { clock, runner, m, pod } = setup([tc.container]);
    m.addPod(pod);
    for (const t of ['readiness', 'startup']) runner.script(t, tc.script ?? ['s']);
    if (tc.script) await clock.step(0);
    const before = runner.runs('readiness');
    const s: V1PodStatus = { phase: 'Running', containerStatuses: [tc.status] };
    m.updatePodStatus('uid-1', s);
    assert.deepEqual({ started: s.containerStatuses?.[0]?.started, ready: s.containerStatuses?.[0]?.ready }, tc.expect);
    assert.equal(runner.runs('readiness'), before, 'the trigger runs on a zero timer, not inside updatePodStatus');
    await clock.step(0);
    assert.equal(runner.runs('readiness') - before, tc.triggersReadiness ? 1 : 0);
    m.stop();
  });
}

test('updatePodStatus: a regular init container is ready when it exited 0', () => {
  const { m, pod } = setup([{ name: 'app', image: 'img' }]);
  pod.spec!.initContainers = [{ name: 'init', image: 'img' }];
  m.addPod(pod);
  const s: V1PodStatus = {
    initContainerStatuses: [
      { name: 'init', image: 'i', imageID: 'i', ready: false, restartCount: 0, state: { terminated: { exitCode: 0 } } },
    ],
  };
  m.updatePodStatus('uid-1', s);
  assert.equal(s.initContainerStatuses?.[0]?.ready, true);
});

test('Unhealthy events carry the kubelet message and are rate-limited per container+probe', async () => {
  const c: V1Container = { name: 'app', image: 'img', readinessProbe: execProbe('readiness', { failureThreshold: 100 }) };
  const { clock, runner, recorder, m, pod } = setup([c], { events: { burst: 3, perSecond: 0.1 } });
  runner.script('readiness', [{ status: 'failure', output: 'HTTP probe failed with statuscode: 500' }]);
  m.addPod(pod);
  await clock.step(0);
  for (let i = 0; i < 10; i++) await clock.step(1000);
  // 11 runs over 10 s: the burst of 3, then one more once 10 s refilled a token.
  assert.equal(runner.runs('readiness'), 11);
  assert.equal(recorder.events.length, 4);
  assert.equal(m.droppedEvents(), 7);
  assert.deepEqual(recorder.events[0], {
    ref: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'uid-1', fieldPath: 'spec.containers{app}' },
    type: 'Warning',
    reason: 'Unhealthy',
    message: 'Readiness probe failed: HTTP probe failed with statuscode: 500',
  });
  m.stop();
});

test('bus: changes are always published; every run only when asked, rate-limited', async () => {
  for (const [everyRun, expected] of [
    [false, ['success', 'failure', 'success']],
    [true, ['success', 'success', 'success', 'failure', 'success']],
  ] as const) {
    const c: V1Container = { name: 'app', image: 'img', readinessProbe: execProbe('readiness') };
    const { clock, runner, bus, m, pod } = setup([c], { publishEveryRun: everyRun, everyRunBurst: 2, everyRunPerSecond: 0.0001 });
    runner.script('readiness', ['s', 's', 's', 's', 'f', 's', 's', 's']);
    m.addPod(pod);
    await clock.step(0);
    for (let i = 0; i < 7; i++) await clock.step(1000);
    assert.deepEqual(
      bus.events.map((e) => e.result),
      expected,
      `publishEveryRun=${everyRun}`,
    );
    const first = bus.events[0];
    assert.equal(first?.type, 'probe');
    assert.deepEqual(first?.pod, { namespace: 'default', name: 'web', uid: 'uid-1' });
    assert.equal(first?.probeType, 'readiness');
    assert.equal(first?.previous, undefined);
    m.stop();
  }
});

test('onRun: every run reaches the listener, unthrottled, while the bus gets only the changes', async () => {
  const c: V1Container = { name: 'app', image: 'img', readinessProbe: execProbe('readiness') };
  const { clock, runner, bus, m, pod } = setup([c]);
  const runs: string[] = [];
  const stop = m.onRun((r) => runs.push(`${r.pod.uid}/${r.container}/${r.probeType}=${r.result}`));
  runner.script('readiness', ['s', 's', 's', 'f', 's']);
  m.addPod(pod);
  await clock.step(0);
  for (let i = 0; i < 4; i++) await clock.step(1000);
  assert.deepEqual(runs, ['s', 's', 's', 'f', 's'].map((r) => `uid-1/app/readiness=${r === 's' ? 'success' : 'failure'}`));
  assert.deepEqual(bus.events.map((e) => e.result), ['success', 'failure', 'success']);
  stop();
  await clock.step(1000);
  assert.equal(runs.length, 5);
  m.stop();
});

test('addPod refuses invalid probes with the API messages and starts no worker', () => {
  const c: V1Container = { name: 'app', image: 'img', livenessProbe: { periodSeconds: -1, successThreshold: 2, exec: { command: ['x'] } } };
  const { m, pod } = setup([c]);
  const r = m.addPod(pod);
  assert.deepEqual(r, {
    ok: false,
    reason: 'FailedValidation',
    message:
      'spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0, spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
    errors: [
      'spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
    ],
  });
  assert.equal(m.workerCount(), 0);
});

test('removePod, cleanupPods and stopLivenessAndStartup stop the right workers', () => {
  const c: V1Container = {
    name: 'app',
    image: 'img',
    livenessProbe: execProbe('liveness'),
    readinessProbe: execProbe('readiness'),
    startupProbe: execProbe('startup'),
  };
  const { m, pod } = setup([c]);
  const other = makePod([c], { uid: 'uid-2' });
  m.addPod(pod);
  m.addPod(other);
  assert.equal(m.workerCount(), 6);
  assert.deepEqual(m.addPod(pod), { ok: true, workers: 0 }, 'duplicates are not added');
  m.stopLivenessAndStartup(pod);
  assert.equal(m.workerCount(), 4);
  m.cleanupPods(new Set(['uid-1']));
  assert.equal(m.workerCount(), 1);
  m.removePod(pod);
  assert.equal(m.workerCount(), 0);
});

test('bus: a threshold flip is published even when the run result repeats', async () => {
  const c: V1Container = { name: 'app', image: 'img', readinessProbe: execProbe('readiness', { failureThreshold: 2 }) };
  const { clock, runner, bus, m, pod } = setup([c]);
  runner.script('readiness', ['s', 'f', 'f', 'f']);
  m.addPod(pod);
  await clock.step(0);
  for (let i = 0; i < 3; i++) await clock.step(1000);
  assert.deepEqual(
    bus.events.map((e) => [e.result, e.previous, e.effective, e.output]),
    [
      ['success', undefined, 'success', undefined],
      ['failure', 'success', 'success', 'readiness failed'],
      ['failure', 'failure', 'failure', 'readiness failed'],
    ],
  );
  m.stop();
});
