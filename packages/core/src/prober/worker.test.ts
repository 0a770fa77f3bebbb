import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Container, V1Probe } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { KubeletProbeManager } from './manager.ts';
import {
  execProbe,
  FakeProbeRunner,
  FakeStatusProvider,
  makePod,
  RecordingBus,
  RecordingStatusSink,
} from './testing/fakes.ts';
import type { ProbeResult, ProbeType, RunOutcome } from './types.ts';

type Script = Array<RunOutcome | 's' | 'f' | 'hang'>;

function setup(containers: V1Container[], podExtra: Parameters<typeof makePod>[1] = {}) {
  const clock = new FakeClock();
  const runner = new FakeProbeRunner();
  const status = new FakeStatusProvider();
  const sink = new RecordingStatusSink();
  const bus = new RecordingBus();
  const m = new KubeletProbeManager({ clock, runner, statusProvider: status, statusSink: sink, bus, random: () => 0 });
  // What the kubelet's sync loop hears: liveness/startup failures (computePodActions then kills the container).
  const failures: Array<{ probeType: ProbeType; containerId: string }> = [];
  for (const r of [m.liveness, m.startup]) r.onUpdate((u) => void (u.result === 'failure' && failures.push({ probeType: u.probeType, containerId: u.containerId })));
  const pod = makePod(containers, podExtra);
  const uid = pod.metadata?.uid ?? '';
  for (const c of containers) status.running(uid, c.name, `${c.name}-1`, clock.now());
  m.start();
  const added = m.addPod(pod);
  assert.equal(added.ok, true);
  return { clock, runner, status, sink, failures, bus, m, pod, uid };
}

function container(t: ProbeType, probe: V1Probe): V1Container {
  const c: V1Container = { name: 'app', image: 'img' };
  if (t === 'liveness') c.livenessProbe = probe;
  else if (t === 'readiness') c.readinessProbe = probe;
  else c.startupProbe = probe;
  return c;
}

interface ThresholdCase {
  name: string;
  type: ProbeType;
  probe: Partial<V1Probe>;
  outcomes: Script;
  /** The cached result after each tick (tick 0 at t=0, then one per periodSeconds=1). */
  expect: ProbeResult[];
  runs: number;
  /** Failure results the sync loop hears (each one: a kill decided by computePodActions). */
  failures?: ProbeType[];
}

const thresholdCases: ThresholdCase[] = [
  {
    name: 'readiness flips to failure only at the 3rd failure in a row',
    type: 'readiness',
    probe: { failureThreshold: 3 },
    outcomes: ['s', 'f', 'f', 'f', 's'],
    expect: ['success', 'success', 'success', 'failure', 'success'],
    runs: 5,
  },
  {
    name: 'readiness successThreshold 2 needs two successes in a row',
    type: 'readiness',
    probe: { successThreshold: 2, failureThreshold: 1 },
    outcomes: ['s', 's', 'f', 's', 's'],
    expect: ['failure', 'success', 'failure', 'failure', 'success'],
    runs: 5,
  },
  {
    name: 'a success resets the failure run',
    type: 'readiness',
    probe: { failureThreshold: 2 },
    outcomes: ['s', 'f', 's', 'f', 's', 'f', 'f'],
    expect: ['success', 'success', 'success', 'success', 'success', 'success', 'failure'],
    runs: 7,
  },
  {
    name: 'liveness failures below the threshold keep success',
    type: 'liveness',
    probe: { failureThreshold: 3 },
    outcomes: ['f', 'f', 's', 'f', 'f', 's'],
    expect: ['success', 'success', 'success', 'success', 'success', 'success'],
    runs: 6,
  },
  {
    name: 'liveness failure at the threshold is reported once and holds the worker',
    type: 'liveness',
    probe: { failureThreshold: 2 },
    outcomes: ['f', 'f', 'f', 'f'],
    expect: ['success', 'failure', 'failure', 'failure'],
    runs: 2,
    failures: ['liveness'],
  },
  {
    name: 'liveness failure with a probe-level terminationGracePeriodSeconds (the kill grace is computePodActions\'s)',
    type: 'liveness',
    probe: { failureThreshold: 1, terminationGracePeriodSeconds: 7 },
    outcomes: ['f'],
    expect: ['failure', 'failure'],
    runs: 1,
    failures: ['liveness'],
  },
  {
    name: 'startup is unknown until it succeeds, then holds',
    type: 'startup',
    probe: { failureThreshold: 3 },
    outcomes: ['f', 's', 's'],
    expect: ['unknown', 'success', 'success', 'success'],
    runs: 2,
  },
  {
    name: 'startup failure at the threshold is reported once and holds the worker',
    type: 'startup',
    probe: { failureThreshold: 2, terminationGracePeriodSeconds: 5 },
    outcomes: ['f', 'f', 'f'],
    expect: ['unknown', 'failure', 'failure'],
    runs: 2,
    failures: ['startup'],
  },
  {
    name: 'liveness initialDelaySeconds: initial success and no runs before the delay',
    type: 'liveness',
    probe: { initialDelaySeconds: 3, failureThreshold: 1 },
    outcomes: ['f'],
    expect: ['success', 'success', 'success', 'failure'],
    runs: 1,
    failures: ['liveness'],
  },
  {
    name: 'readiness initialDelaySeconds: failure before the delay',
    type: 'readiness',
    probe: { initialDelaySeconds: 2 },
    outcomes: ['s'],
    expect: ['failure', 'failure', 'success'],
    runs: 1,
  },
  {
    name: 'a probe prober error (unknown) is thrown away',
    type: 'readiness',
    probe: { failureThreshold: 1 },
    outcomes: [{ status: 'unknown', output: '', error: 'boom' }, 's'],
    expect: ['failure', 'success'],
    runs: 2,
  },
  {
    name: 'a warning counts as success',
    type: 'readiness',
    probe: {},
    outcomes: [{ status: 'warning', output: 'Probe terminated redirects, Response body: ' }],
    expect: ['success'],
    runs: 1,
  },
];

for (const tc of thresholdCases) {
  test(`worker thresholds: ${tc.name}`, async () => {
    const { clock, runner, failures, m } = setup([container(tc.type, execProbe(tc.type, tc.probe))]);
    runner.script(tc.type, tc.outcomes);
    const results = tc.type === 'liveness' ? m.liveness : tc.type === 'readiness' ? m.readiness : m.startup;
    const got: Array<ProbeResult | undefined> = [];
    for (let i = 0; i < tc.expect.length; i++) {
      await clock.step(i === 0 ? 0 : 1000);
      got.push(results.get('app-1'));
    }
    assert.deepEqual(got, tc.expect);
    assert.equal(runner.runs(tc.type), tc.runs);
    assert.deepEqual(
      failures.map((f) => f.probeType),
      tc.failures ?? [],
    );
    m.stop();
  });
}

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
