// A sandbox that cannot be created (#16 item 2): every retry records the kubelet's Warning FailedCreatePodSandBox
// "Failed to create pod sandbox: <err>" (the recorder aggregates repeats into a count) and the step fails with
// CreatePodSandboxError, but the log line is written once per distinct error, not on every retry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { CriError } from '../cri/types.ts';
import { KubeImageManager } from '../images/image-manager.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger, RecordingLogger } from '../util/logger.ts';
import { KubeRuntimeManager } from './runtime-manager.ts';
import { container, makePod } from './testing/builders.ts';
import type { EventSink } from './types.ts';

test('FailedCreatePodSandBox on every retry, one log line per distinct error', async () => {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: true, images: [] });
  const events: string[] = [];
  const sink: EventSink = (_p, type, reason, msg) => events.push(`${type} ${reason}: ${msg}`);
  const log = new RecordingLogger();
  const rt = new KubeRuntimeManager(
    { cri, clock, logger: log.logger, images: new KubeImageManager({ cri, clock, logger: nullLogger, events: sink }), events: sink },
    { podLogsDir: '/var/log/pods', nodeName: 'node1', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } },
  );
  const pod = makePod({ name: 'web', containers: [container('app')] });
  const sync = async () => rt.syncPod(pod, await rt.getPodStatus('uid-web', 'web', 'default'));
  const full = 'no free /24 left in 10.89.0.0/16 for network nodelet-embedded';
  const fails = [full, full, full, 'plugin type="bridge" failed (add): busy', full];
  for (const msg of fails) {
    cri.failNext('runPodSandbox', new CriError('UNKNOWN', msg));
    const r = await sync();
    assert.equal(r.error?.reason, 'CreatePodSandboxError');
  }
  assert.equal(events.filter((e) => e.startsWith('Warning FailedCreatePodSandBox: Failed to create pod sandbox: ')).length, 5);
  assert.ok(events[0]!.endsWith(full), String(events[0]));
  const logged = () => log.records.filter((r) => r.msg === 'CreatePodSandbox for pod failed').map((r) => String(r.err));
  assert.equal(logged().length, 3, 'full, busy, full again');
  assert.match(logged()[0]!, /^Failed to create sandbox for pod "web_default\(uid-web\)": .*no free \/24 left/);
  assert.equal((await sync()).error, undefined, 'the next retry succeeds');
});
