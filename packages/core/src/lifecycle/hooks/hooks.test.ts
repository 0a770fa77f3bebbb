import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { V1Container, V1LifecycleHandler, V1Pod } from '@kubernetes/client-node';
import { FakeRuntime, HOST_IMAGE } from '../../cri/testing/fake-runtime.ts';
import { RecordingEventRecorder } from '../../events/testing/recording-recorder.ts';
import { createExecRunner } from '../../prober/runners/exec-runner.ts';
import { createHttpRunner } from '../../prober/runners/http-runner.ts';
import { FakeClock, realClock, type Clock } from '../../util/clock.ts';
import { runPostStart, runPreStop, type PreStopOutcome } from './run-hooks.ts';
import type { HookDeps, HookResult } from './types.ts';

let server: http.Server;
let port = 0;
let closedPort = 0;

before(async () => {
  server = http.createServer((req, res) => res.writeHead(req.url === '/fail' ? 500 : 200).end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  const tmp = net.createServer();
  await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r));
  closedPort = (tmp.address() as AddressInfo).port;
  await new Promise<void>((r) => tmp.close(() => r()));
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

async function setup(clock: Clock) {
  const rt = new FakeRuntime({ clock });
  rt.execHandler = (_id, cmd) => (cmd.join(' ') === 'sh -c exit 1' ? { exitCode: 1, stdout: 'out;', stderr: 'bad' } : { exitCode: 0 });
  const { podSandboxId } = await rt.runPodSandbox({ config: { metadata: { name: 'web', uid: 'uid-1', namespace: 'default' } } });
  const { containerId } = await rt.createContainer({ podSandboxId, config: { metadata: { name: 'app' }, image: { image: HOST_IMAGE } }, sandboxConfig: {} });
  await rt.startContainer({ containerId });
  const recorder = new RecordingEventRecorder();
  const deps: HookDeps = {
    clock,
    exec: createExecRunner(rt, clock),
    http: createHttpRunner({ clock }),
    podIP: () => '127.0.0.1',
    recorder,
  };
  return { rt, deps, recorder, containerId };
}

const pod: V1Pod = { metadata: { name: 'web', namespace: 'default', uid: 'uid-1' }, spec: { containers: [] } };
const withHook = (k: 'postStart' | 'preStop', h: V1LifecycleHandler): V1Container => ({
  name: 'app',
  image: 'img',
  ports: [{ name: 'http', containerPort: 1 }],
  lifecycle: { [k]: h },
});
const where = 'for Container "app" in Pod "web_default(uid-1)"';

const postStartCases: Array<{ name: string; h: () => V1LifecycleHandler; expect: () => HookResult }> = [
  { name: 'exec exit 0', h: () => ({ exec: { command: ['true'] } }), expect: () => ({ ok: true }) },
  {
    name: 'exec exit 1',
    h: () => ({ exec: { command: ['sh', '-c', 'exit 1'] } }),
    expect: () => ({
      ok: false,
      reason: 'FailedPostStartHook',
      message: `Exec lifecycle hook ([sh -c exit 1]) ${where} failed - error: command 'sh -c exit 1' exited with 1: , message: "out;bad"`,
      eventMessage: 'PostStartHook failed',
    }),
  },
  { name: 'httpGet answered (any status counts)', h: () => ({ httpGet: { port, path: '/fail' } }), expect: () => ({ ok: true }) },
  {
    name: 'httpGet to a closed port',
    h: () => ({ httpGet: { port: closedPort, path: '/' } }),
    expect: () => ({
      ok: false,
      reason: 'FailedPostStartHook',
      message: `HTTP lifecycle hook (/) ${where} failed - error: Get "http://127.0.0.1:${closedPort}/": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`,
      eventMessage: 'PostStartHook failed',
    }),
  },
  {
    name: 'httpGet to an undeclared port name',
    h: () => ({ httpGet: { port: 'admin', path: '/x' } }),
    expect: () => ({
      ok: false,
      reason: 'FailedPostStartHook',
      message: `HTTP lifecycle hook (/x) ${where} failed - error: port "admin" not found`,
      eventMessage: 'PostStartHook failed',
    }),
  },
];

for (const tc of postStartCases) {
  test(`postStart: ${tc.name}`, async () => {
    const { deps, recorder, containerId } = await setup(realClock);
    const expected = tc.expect();
    assert.deepEqual(await runPostStart(deps, pod, withHook('postStart', tc.h()), containerId), expected);
    assert.deepEqual(
      recorder.events.map((e) => [e.type, e.reason, e.message, e.ref.fieldPath]),
      expected.ok ? [] : [['Warning', 'FailedPostStartHook', 'PostStartHook failed', 'spec.containers{app}']],
    );
  });
}

test('postStart: sleep waits its seconds on the clock', async () => {
  const clock = new FakeClock();
  const { deps, containerId } = await setup(clock);
  let r: HookResult | undefined;
  void runPostStart(deps, pod, withHook('postStart', { sleep: { seconds: 5 } }), containerId).then((x) => (r = x));
  await clock.step(4999);
  assert.equal(r, undefined);
  await clock.step(1);
  assert.deepEqual(r, { ok: true });
});

const preStopCases: Array<{ name: string; h?: V1LifecycleHandler; grace: number; stepS: number; hang?: boolean; expect: Omit<PreStopOutcome, 'result'>; ok: boolean }> = [
  { name: 'no preStop: all the grace goes to StopContainer', grace: 30, stepS: 0, expect: { elapsedS: 0, stopTimeoutS: 30, timedOut: false }, ok: true },
  { name: 'a quick exec uses nothing', h: { exec: { command: ['true'] } }, grace: 30, stepS: 0, expect: { elapsedS: 0, stopTimeoutS: 30, timedOut: false }, ok: true },
  { name: 'sleep 10 of 30: 20 left', h: { sleep: { seconds: 10 } }, grace: 30, stepS: 10, expect: { elapsedS: 10, stopTimeoutS: 20, timedOut: false }, ok: true },
  { name: 'sleep past the grace: cut at the grace, 2 s minimum left', h: { sleep: { seconds: 40 } }, grace: 30, stepS: 30, expect: { elapsedS: 30, stopTimeoutS: 2, timedOut: true }, ok: true },
  { name: 'a hung exec is abandoned at the grace', h: { exec: { command: ['hang'] } }, grace: 5, stepS: 5, hang: true, expect: { elapsedS: 5, stopTimeoutS: 2, timedOut: true }, ok: true },
  { name: 'a failing exec: FailedPreStopHook, grace intact', h: { exec: { command: ['sh', '-c', 'exit 1'] } }, grace: 30, stepS: 0, expect: { elapsedS: 0, stopTimeoutS: 30, timedOut: false }, ok: false },
];

for (const tc of preStopCases) {
  test(`preStop: ${tc.name}`, async () => {
    const clock = new FakeClock();
    const { rt, deps, recorder, containerId } = await setup(clock);
    const release = tc.hang ? rt.holdNext('execSync') : undefined;
    const c: V1Container = tc.h ? withHook('preStop', tc.h) : { name: 'app', image: 'img' };
    let out: PreStopOutcome | undefined;
    void runPreStop(deps, pod, c, containerId, tc.grace).then((x) => (out = x));
    await clock.step(0);
    if (tc.stepS > 0) {
      await clock.step(tc.stepS * 1000 - 1);
      assert.equal(out, undefined, 'still running just before');
      await clock.step(1);
    }
    assert.ok(out);
    assert.deepEqual({ elapsedS: out.elapsedS, stopTimeoutS: out.stopTimeoutS, timedOut: out.timedOut }, tc.expect);
    assert.equal(out.result.ok, tc.ok);
    assert.deepEqual(recorder.reasons(), tc.ok ? [] : ['FailedPreStopHook']);
    if (!tc.ok) assert.equal(recorder.events[0]?.message, 'PreStopHook failed');
    release?.();
  });
}
