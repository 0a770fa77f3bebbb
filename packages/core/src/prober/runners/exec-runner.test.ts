import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Container } from '@kubernetes/client-node';
import { FakeRuntime, HOST_IMAGE } from '../../cri/testing/fake-runtime.ts';
import { FakeClock } from '../../util/clock.ts';
import { KubeletProbeManager } from '../manager.ts';
import { FakeStatusProvider, makePod, RecordingBus } from '../testing/fakes.ts';
import type { ProbeResult, RunOutcome } from '../types.ts';
import { createExecRunner } from './exec-runner.ts';
import { createProbeRunner } from './index.ts';

async function runningContainer(rt: FakeRuntime, name: string): Promise<string> {
  const { podSandboxId } = await rt.runPodSandbox({ config: { metadata: { name: `pod-${name}`, uid: name, namespace: 'default' } } });
  const { containerId } = await rt.createContainer({
    podSandboxId,
    config: { metadata: { name }, image: { image: HOST_IMAGE } },
    sandboxConfig: {},
  });
  await rt.startContainer({ containerId });
  return containerId;
}

function fakeRuntime(clock: FakeClock): FakeRuntime {
  const rt = new FakeRuntime({ clock });
  rt.execHandler = (_id, cmd) => {
    if (cmd[0] === 'ok') return { exitCode: 0, stdout: 'fine\n' };
    return { exitCode: 3, stdout: 'out;', stderr: 'bad' };
  };
  return rt;
}

const cases: Array<{ name: string; cmd: string[]; timeoutS: number; expect: RunOutcome & { exitCode?: number } }> = [
  { name: 'exit 0 succeeds with the output', cmd: ['ok'], timeoutS: 1, expect: { status: 'success', output: 'fine\n', exitCode: 0 } },
  { name: 'a non-zero exit fails with stdout+stderr', cmd: ['no'], timeoutS: 1, expect: { status: 'failure', output: 'out;bad', exitCode: 3 } },
];

for (const tc of cases) {
  test(`exec runner: ${tc.name}`, async () => {
    const clock = new FakeClock();
    const rt = fakeRuntime(clock);
    const id = await runningContainer(rt, 'app');
    const exec = createExecRunner(rt, clock);
    assert.deepEqual(await exec(id, tc.cmd, tc.timeoutS), tc.expect);
    assert.deepEqual(rt.callsOf<{ timeout: number; cmd: string[] }>('execSync').map((r) => [r.cmd, r.timeout]), [[tc.cmd, tc.timeoutS]]);
  });
}

test('exec runner: a CRI error is a prober error (the run is thrown away)', async () => {
  const clock = new FakeClock();
  const rt = fakeRuntime(clock);
  const got = await createExecRunner(rt, clock)('missing', ['ok'], 1);
  assert.equal(got.status, 'unknown');
  assert.match(got.error ?? '', /not found/);
});

test('exec runner: a hung exec fails at timeoutSeconds with "command ... timed out"', async () => {
  const clock = new FakeClock();
  const rt = fakeRuntime(clock);
  const id = await runningContainer(rt, 'app');
  const release = rt.holdNext('execSync');
  let got: RunOutcome | undefined;
  void createExecRunner(rt, clock)(id, ['sleep', '100'], 3).then((r) => (got = r));
  await clock.step(2999);
  assert.equal(got, undefined);
  await clock.step(1);
  assert.deepEqual(got, { status: 'failure', output: "command 'sleep 100' timed out" });
  release();
});

test('a hung exec liveness probe times out and fails (a restart for the sync loop) without delaying another pod', async () => {
  const clock = new FakeClock();
  const rt = fakeRuntime(clock);
  const status = new FakeStatusProvider();
  const bus = new RecordingBus();
  const runner = createProbeRunner({ cri: rt, clock });
  const m = new KubeletProbeManager({ clock, runner, statusProvider: status, bus, random: () => 0 });
  const failures: Array<{ podUid: string; containerName: string; probeType: string }> = [];
  m.liveness.onUpdate((u) => void (u.result === 'failure' && failures.push({ podUid: u.podUid, containerName: u.containerName, probeType: u.probeType })));
  const hungC: V1Container = {
    name: 'hung',
    image: 'img',
    livenessProbe: { exec: { command: ['sleep', '100'] }, timeoutSeconds: 3, periodSeconds: 10, failureThreshold: 1 },
  };
  const okC: V1Container = { name: 'ok', image: 'img', readinessProbe: { exec: { command: ['ok'] }, periodSeconds: 1 } };
  const podA = makePod([hungC], { uid: 'a' });
  const podB = makePod([okC], { uid: 'b' });
  status.running('a', 'hung', await runningContainer(rt, 'hung'), clock.now());
  status.running('b', 'ok', await runningContainer(rt, 'ok'), clock.now());
  const release = rt.holdNext('execSync'); // the first exec (pod a's liveness) hangs
  m.start();
  m.addPod(podA);
  m.addPod(podB);
  const ready: Array<ProbeResult | undefined> = [];
  for (let t = 0; t <= 3; t++) {
    await clock.step(t === 0 ? 0 : 1000);
    ready.push(bus.events.filter((e) => e.pod.uid === 'b').length > 0 ? 'success' : undefined);
    if (t < 3) assert.equal(failures.length, 0, `no failure before the timeout (t=${t})`);
  }
  const bRuns = rt.callsOf<{ cmd: string[] }>('execSync').filter((r) => r.cmd[0] === 'ok').length;
  assert.equal(bRuns, 4, 'pod b probed every second while pod a hung');
  assert.deepEqual(ready, ['success', 'success', 'success', 'success']);
  const a = bus.events.find((e) => e.pod.uid === 'a');
  assert.deepEqual(
    a && { result: a.result, output: a.output, latencyMs: a.latencyMs },
    { result: 'failure', output: "command 'sleep 100' timed out", latencyMs: 3000 },
  );
  assert.deepEqual(failures, [{ podUid: 'a', containerName: 'hung', probeType: 'liveness' }]);
  release();
  m.stop();
});
