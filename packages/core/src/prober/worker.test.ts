import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Container } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { KubeletProbeManager } from './manager.ts';
import { execProbe, FakeProbeRunner, FakeStatusProvider, makePod } from './testing/fakes.ts';
import type { ProbeResult, ProbeType } from './types.ts';
import { container, setup } from './worker-fixtures.ts';

test('startup gates liveness and readiness; its success triggers readiness at once', async () => {
  const c: V1Container = {
    name: 'app',
    image: 'img',
    startupProbe: execProbe('startup', { failureThreshold: 10 }),
    readinessProbe: execProbe('readiness', { periodSeconds: 10 }),
    livenessProbe: execProbe('liveness', { periodSeconds: 10 }),
  };
  const { clock, runner, sink, m, uid } = setup([c]);
  runner.script('startup', ['f', 'f', 's']);
  const seen: Array<[number, number, number]> = [];
  for (let i = 0; i < 4; i++) {
    await clock.step(i === 0 ? 0 : 1000);
    seen.push([runner.runs('startup'), runner.runs('readiness'), runner.runs('liveness')]);
  }
  // t=0,1: only startup runs; t=2: startup succeeds → readiness runs immediately; liveness waits its tick.
  assert.deepEqual(seen, [
    [1, 0, 0],
    [2, 0, 0],
    [3, 1, 0],
    [3, 1, 0],
  ]);
  await clock.step(7000); // t=10: liveness and readiness ticks
  assert.equal(runner.runs('liveness'), 1);
  assert.deepEqual(
    sink.calls.filter((x) => x.podUid === uid),
    [
      // initial values when the worker first sees the container: not started, not ready
      { kind: 'started', podUid: uid, container: 'app', value: false },
      { kind: 'ready', podUid: uid, container: 'app', value: false },
      { kind: 'started', podUid: uid, container: 'app', value: true },
      { kind: 'ready', podUid: uid, container: 'app', value: true },
    ],
  );
  m.stop();
});

test('a restarted container (new id) resets the worker and probing resumes', async () => {
  const { clock, runner, status, failures, m, uid } = setup([container('liveness', execProbe('liveness', { failureThreshold: 1 }))]);
  runner.script('liveness', ['f', 's']);
  await clock.step(0);
  assert.equal(m.liveness.get('app-1'), 'failure');
  assert.deepEqual(failures, [{ probeType: 'liveness', containerId: 'app-1' }]);
  await clock.step(1000);
  assert.equal(runner.runs('liveness'), 1, 'on hold until a new container appears');
  status.running(uid, 'app', 'app-2', clock.now());
  await clock.step(1000);
  assert.equal(m.liveness.get('app-1'), undefined, 'old container result removed');
  assert.equal(m.liveness.get('app-2'), 'success');
  assert.equal(runner.runs('liveness'), 2);
  assert.equal(m.getWorker(uid, 'app', 'liveness')?.containerId, 'app-2');
  m.stop();
});

interface StopCase {
  name: string;
  type: ProbeType;
  restartPolicy?: string;
  change(s: FakeStatusProvider, uid: string, pod: ReturnType<typeof makePod>): void;
  stops: boolean;
  result?: ProbeResult;
}

const stopCases: StopCase[] = [
  { name: 'pod Succeeded stops the worker', type: 'readiness', change: (s, uid) => void (s.statuses.get(uid)!.phase = 'Succeeded'), stops: true },
  { name: 'pod Failed stops the worker', type: 'liveness', change: (s, uid) => void (s.statuses.get(uid)!.phase = 'Failed'), stops: true },
  {
    name: 'terminated container with restartPolicy Never stops (result failure)',
    type: 'readiness',
    restartPolicy: 'Never',
    change: (s, uid) => s.terminated(uid, 'app', 0),
    stops: true,
    result: 'failure',
  },
  {
    name: 'terminated container with restartPolicy Always keeps the worker (result failure)',
    type: 'readiness',
    change: (s, uid) => s.terminated(uid, 'app', 1),
    stops: false,
    result: 'failure',
  },
  {
    name: 'pod deletion sets liveness success and stops',
    type: 'liveness',
    change: (_s, _uid, pod) => void (pod.metadata!.deletionTimestamp = new Date(0)),
    stops: true,
  },
];

for (const tc of stopCases) {
  test(`worker stop: ${tc.name}`, async () => {
    const { clock, status, m, uid, pod } = setup([container(tc.type, execProbe(tc.type))], { restartPolicy: tc.restartPolicy });
    await clock.step(0);
    const w = m.getWorker(uid, 'app', tc.type);
    assert.ok(w);
    tc.change(status, uid, pod);
    await clock.step(1000);
    assert.equal(w.isStopped(), tc.stops);
    assert.equal(m.workerCount(), tc.stops ? 0 : 1);
    if (tc.result) assert.equal((tc.type === 'liveness' ? m.liveness : m.readiness).get('app-1') ?? 'failure', tc.result);
    m.stop();
  });
}

test('a hung probe never delays another worker (each run has its own bound)', async () => {
  const a: V1Container = { name: 'a', image: 'img', livenessProbe: execProbe('hang', { timeoutSeconds: 2, periodSeconds: 10 }) };
  const b: V1Container = { name: 'b', image: 'img', readinessProbe: execProbe('readiness', { failureThreshold: 1 }) };
  const { clock, runner, m } = setup([a, b]);
  runner.script('hang', ['hang']);
  runner.script('readiness', ['s', 'f', 's', 'f', 's']);
  const got: Array<ProbeResult | undefined> = [];
  for (let i = 0; i < 5; i++) {
    await clock.step(i === 0 ? 0 : 1000);
    got.push(m.readiness.get('b-1'));
  }
  assert.deepEqual(got, ['success', 'failure', 'success', 'failure', 'success']);
  assert.equal(runner.runs('hang'), 1);
  m.stop();
});

test('jitter: the first run waits random() × period when the manager just started', async () => {
  const clock = new FakeClock();
  const runner = new FakeProbeRunner();
  const status = new FakeStatusProvider();
  const m = new KubeletProbeManager({ clock, runner, statusProvider: status, random: () => 0.5 });
  const pod = makePod([container('readiness', execProbe('readiness', { periodSeconds: 10 }))]);
  status.running('uid-1', 'app', 'app-1', clock.now());
  m.start();
  m.addPod(pod);
  await clock.step(4999);
  assert.equal(runner.runs('readiness'), 0);
  await clock.step(1);
  assert.equal(runner.runs('readiness'), 1);
  await clock.step(10_000);
  assert.equal(runner.runs('readiness'), 2);
  m.stop();
});
