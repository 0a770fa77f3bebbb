/**
 * The probe workers' tests (worker.test.ts, worker-thresholds.test.ts): a started probe manager over the fakes
 * with one pod of `containers` running (setup), and a container with one probe of a type (container).
 */
import assert from 'node:assert/strict';
import type { V1Container, V1Probe } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { KubeletProbeManager } from './manager.ts';
import { FakeProbeRunner, FakeStatusProvider, makePod, RecordingBus, RecordingStatusSink } from './testing/fakes.ts';
import type { ProbeType } from './types.ts';

export function setup(containers: V1Container[], podExtra: Parameters<typeof makePod>[1] = {}) {
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

export function container(t: ProbeType, probe: V1Probe): V1Container {
  const c: V1Container = { name: 'app', image: 'img' };
  if (t === 'liveness') c.livenessProbe = probe;
  else if (t === 'readiness') c.readinessProbe = probe;
  else c.startupProbe = probe;
  return c;
}
