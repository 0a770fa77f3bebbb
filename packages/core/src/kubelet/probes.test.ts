/**
 * The probe wiring of the kubelet on the recording fake runtime and a FakeClock: a liveness failure kills the
 * container (preStop first, the probe's grace) and the restart policy restarts it; readiness drives ready and
 * the Ready condition; a failing postStart kills the container; an invalid probe refuses its pod only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import type { K8sBusEvent, ProbeBusEvent } from '../events/types.ts';
import { createKubelet } from './kubelet.ts';
import { MemoryManifestFs } from './testing/memory-manifest-fs.ts';
import { staticPodKubeletConfig } from './testing/kubelet-config.ts';

const HOST = 'nodelet.local/host:latest';
const manifest = (name: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec });

function setup() {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false });
  const flags = { liveFail: false, ready: false };
  cri.execHandler = (_id, cmd) => {
    const c = cmd[0];
    if (c === 'check-live') return flags.liveFail ? { exitCode: 1, stdout: 'dead\n' } : { exitCode: 0 };
    if (c === 'check-ready') return flags.ready ? { exitCode: 0 } : { exitCode: 1, stderr: 'not yet' };
    if (c === 'fail-hook') return { exitCode: 2, stdout: 'hook says no' };
    return { exitCode: 0 };
  };
  const fs = new MemoryManifestFs('/manifests');
  fs.put('live.json', manifest('live', {
    terminationGracePeriodSeconds: 30,
    containers: [{
      name: 'app', image: HOST, command: ['sleep', '1000'],
      livenessProbe: { exec: { command: ['check-live'] }, periodSeconds: 1, failureThreshold: 2, terminationGracePeriodSeconds: 5 },
      lifecycle: { preStop: { exec: { command: ['prestop'] } } },
    }],
  }));
  fs.put('ready.json', manifest('ready', {
    containers: [{ name: 'web', image: HOST, readinessProbe: { exec: { command: ['check-ready'] }, periodSeconds: 1 } }],
  }));
  fs.put('hook.json', manifest('hook', {
    containers: [{ name: 'h', image: HOST, lifecycle: { postStart: { exec: { command: ['fail-hook'] } } } }],
  }));
  fs.put('badprobe.json', manifest('badprobe', {
    containers: [{ name: 'b', image: HOST, readinessProbe: { httpGet: { port: 8080 }, periodSeconds: -1 } }],
  }));
  const kubelet = createKubelet(
    { cri, clock, logger: nullLogger, manifestFs: fs },
    staticPodKubeletConfig(),
  );
  return { clock, cri, flags, kubelet };
}

const cstatus = (pod: V1Pod | undefined, name: string): V1ContainerStatus | undefined => pod?.status?.containerStatuses?.find((s) => s.name === name);
const readyCond = (pod: V1Pod | undefined) => pod?.status?.conditions?.find((c) => c.type === 'Ready')?.status;

test('kubelet probes: liveness restart, readiness flip, postStart failure, invalid probe refused', async () => {
  const { clock, cri, flags, kubelet } = setup();
  await kubelet.start();
  const step = async (n: number) => {
    for (let i = 0; i < n; i++) await clock.step(1_000);
  };
  await step(15);
  const pod = (n: string) => kubelet.getPod('default', `${n}-node1`);
  const k8s = () => kubelet.events.recent({ types: ['k8sEvent'] }, 2000).filter((e): e is K8sBusEvent => e.type === 'k8sEvent');
  const probes = () => kubelet.events.recent({ types: ['probe'] }, 2000).filter((e): e is ProbeBusEvent => e.type === 'probe');

  // readiness: not ready while the probe fails; ready (and the Ready condition) once it passes; back again
  assert.equal(cstatus(pod('ready'), 'web')?.ready, false);
  assert.equal(readyCond(pod('ready')), 'False');
  assert.equal(cstatus(pod('live'), 'app')?.ready, true, 'no readiness probe: ready when running');
  flags.ready = true;
  await step(2);
  assert.equal(cstatus(pod('ready'), 'web')?.ready, true);
  assert.equal(readyCond(pod('ready')), 'True');
  flags.ready = false;
  await step(2);
  assert.equal(cstatus(pod('ready'), 'web')?.ready, true, 'failureThreshold 3 not reached yet');
  await step(2);
  assert.equal(cstatus(pod('ready'), 'web')?.ready, false);
  assert.equal(pod('ready')?.status?.conditions?.find((c) => c.type === 'ContainersReady')?.status, 'False');
  const flips = probes().filter((e) => e.pod.name === 'ready-node1' && e.probeType === 'readiness').map((e) => e.result);
  assert.deepEqual(flips.slice(0, 3), ['failure', 'success', 'failure']);

  // liveness: two failures → Unhealthy events, Killing with the probe message, preStop, stop with the probe's grace, restart
  const liveId = cstatus(pod('live'), 'app')?.containerID?.replace('fake://', '');
  assert.ok(liveId);
  cri.resetCalls();
  flags.liveFail = true;
  await step(3);
  flags.liveFail = false;
  await step(4);
  assert.ok(k8s().some((e) => e.reason === 'Unhealthy' && e.message === 'Liveness probe failed: dead\n'));
  assert.ok(k8s().some((e) => e.reason === 'Killing' && e.message === 'Container app failed liveness probe, will be restarted'));
  const execs = cri.callsOf<{ containerId: string; cmd: string[] }>('execSync').filter((c) => c.containerId === liveId && c.cmd[0] === 'prestop');
  assert.equal(execs.length, 1, 'preStop ran once before the stop');
  assert.deepEqual(cri.callsOf<{ containerId: string; timeout: number }>('stopContainer').filter((c) => c.containerId === liveId).map((c) => c.timeout), [5]);
  assert.equal(cstatus(pod('live'), 'app')?.restartCount, 1);
  assert.ok(cstatus(pod('live'), 'app')?.state?.running, 'restarted by the restart policy');

  // postStart failure: FailedPostStartHook, the container is killed and restarted
  assert.ok(k8s().some((e) => e.reason === 'FailedPostStartHook' && e.involvedObject.name === 'hook-node1'));
  assert.ok(k8s().some((e) => e.reason === 'Killing' && e.message === 'FailedPostStartHook' && e.involvedObject.name === 'hook-node1'));

  // invalid probe (validateProbe: ValidateNonnegativeField): the manifest is refused at the file with the API
  // server's message and the file named; no pod. (An undeclared named port is accepted, as by the API server.)
  assert.equal(pod('badprobe'), undefined);
  const refused = k8s().find((e) => e.reason === 'FailedValidation' && e.message.includes('badprobe.json'));
  assert.match(refused?.message ?? '', /spec\.containers\[0\]\.readinessProbe\.periodSeconds: Invalid value: -1: must be greater than or equal to 0/);
  assert.equal(cri.callsOf<{ config: { metadata?: { name?: string } } }>('createContainer').filter((c) => c.config.metadata?.name === 'b').length, 0);

  // probes API and metrics
  const rows = kubelet.probes.list({ pod: 'ready-node1' });
  assert.deepEqual(rows.map((r) => [r.container, r.probeType, r.handler, r.effective]), [['web', 'readiness', 'exec', 'failure']]);
  const text = (await kubelet.probes.metrics()).body;
  assert.match(text, /prober_probe_total\{probe_type="Liveness",result="failed",container="app",pod="live-node1",namespace="default",pod_uid="[^"]+"\} [1-9]/);
  assert.match(text, /process_start_time_seconds /);

  await kubelet.stop();
  assert.equal(clock.pending(), 0, 'stop cancels every probe timer');
});
