import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { FakeClock } from '../util/clock.ts';
import { KubeletProbeManager } from './manager.ts';
import { createProberMetrics } from './metrics.ts';
import { execProbe, FakeProbeRunner, FakeStatusProvider, makePod } from './testing/fakes.ts';

function promtool(text: string): { code: number | null; out: string } {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

async function probedRegistry(): Promise<{ registry: Registry; m: KubeletProbeManager }> {
  const clock = new FakeClock();
  const runner = new FakeProbeRunner();
  const status = new FakeStatusProvider();
  const registry = new Registry();
  const metrics = createProberMetrics(registry, { processStartTimeSeconds: 1_767_225_600 });
  const m = new KubeletProbeManager({ clock, runner, statusProvider: status, metrics, random: () => 0 });
  const pod = makePod([{ name: 'app', image: 'img', readinessProbe: execProbe('readiness'), livenessProbe: execProbe('liveness') }]);
  status.running('uid-1', 'app', 'app-1', clock.now());
  runner.script('readiness', ['s', 'f', 's']);
  runner.script('liveness', ['s']);
  m.start();
  m.addPod(pod);
  await clock.step(0);
  await clock.step(1000);
  await clock.step(1000);
  return { registry, m };
}

test('metrics: prober_probe_total and duration with the kubelet labels', async () => {
  const { registry, m } = await probedRegistry();
  const text = await registry.metrics();
  const series = 'container="app",pod="web",namespace="default",pod_uid="uid-1"';
  assert.match(text, new RegExp(`prober_probe_total\\{probe_type="Readiness",result="successful",${series}\\} 2`));
  assert.match(text, new RegExp(`prober_probe_total\\{probe_type="Readiness",result="failed",${series}\\} 1`));
  assert.match(text, new RegExp(`prober_probe_total\\{probe_type="Liveness",result="successful",${series}\\} 3`));
  // Durations are observed for successful (and unknown) runs only, as upstream.
  assert.match(text, /prober_probe_duration_seconds_count\{probe_type="Readiness",container="app",pod="web",namespace="default"\} 2/);
  assert.match(text, /process_start_time_seconds 1767225600/);
  m.stop();
});

test('metrics: text passes promtool check metrics', async () => {
  const { registry, m } = await probedRegistry();
  const r = promtool(await registry.metrics());
  assert.equal(r.code, 0, r.out);
  assert.equal(r.out.trim(), '');
  m.stop();
});

test('metrics: promtool catches a broken exposition (the check can fail)', () => {
  const r = promtool('# TYPE prober_probe_total counter\nprober_probe_total{a="1"} x\n');
  assert.notEqual(r.code, 0);
});

test('metrics: a stopped worker drops its series', async () => {
  const { registry, m } = await probedRegistry();
  m.stop();
  const text = await registry.metrics();
  assert.doesNotMatch(text, /prober_probe_total\{/);
  assert.doesNotMatch(text, /prober_probe_duration_seconds_count\{/);
});
