/**
 * One way in: every kill of a pod's containers goes through the pod worker. A liveness or startup failure is a
 * sync-loop input and computePodActions kills and restarts the container (the prober calls no runtime kill); an
 * eviction is a kill update carrying its status change (Failed / Evicted); a pod past spec.activeDeadlineSeconds
 * is failed (DeadlineExceeded) and terminated. The kubelet on the recording fake runtime and a FakeClock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import type { ContainerConfig } from '../cri/types.ts';
import type { K8sBusEvent } from '../events/types.ts';
import { createKubelet } from './kubelet.ts';
import { evictedStatus } from './eviction-wiring.ts';
import { MemoryManifestFs } from './testing/memory-manifest-fs.ts';
import { staticPodKubeletConfig } from './testing/kubelet-config.ts';

const HOST = 'nodelet.local/host:latest';
const manifest = (name: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec });

function setup(pods: Record<string, Record<string, unknown>>) {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false });
  const flags = { liveFail: false, startFail: true };
  cri.execHandler = (_id, cmd) => {
    if (cmd[0] === 'check-live') return flags.liveFail ? { exitCode: 1, stdout: 'dead\n' } : { exitCode: 0 };
    if (cmd[0] === 'check-start') return flags.startFail ? { exitCode: 1, stdout: 'not up\n' } : { exitCode: 0 };
    return { exitCode: 0 };
  };
  const fs = new MemoryManifestFs('/manifests');
  for (const [name, spec] of Object.entries(pods)) fs.put(`${name}.json`, manifest(name, spec));
  const kubelet = createKubelet(
    { cri, clock, logger: nullLogger, manifestFs: fs },
    staticPodKubeletConfig(),
  );
  const step = async (n: number) => {
    for (let i = 0; i < n; i++) await clock.step(1_000);
  };
  const pod = (n: string) => kubelet.getPod('default', `${n}-node1`);
  const k8s = (name: string) =>
    kubelet.events.recent({ types: ['k8sEvent'] }, 2000).filter((e): e is K8sBusEvent => e.type === 'k8sEvent' && e.involvedObject.name === `${name}-node1`);
  const stops = (id: string | undefined) => cri.callsOf<{ containerId: string; timeout: number }>('stopContainer').filter((c) => c.containerId === id).map((c) => c.timeout);
  const creates = (name: string) => cri.callsOf<{ config: ContainerConfig }>('createContainer').filter((c) => c.config.metadata?.name === name).length;
  return { clock, cri, flags, kubelet, step, pod, k8s, stops, creates };
}

const cstatus = (pod: V1Pod | undefined, name: string): V1ContainerStatus | undefined => pod?.status?.containerStatuses?.find((s) => s.name === name);
const idOf = (s: V1ContainerStatus | undefined) => s?.containerID?.replace('fake://', '');

test('liveness failure: a sync-loop input; the prober kills nothing, computePodActions kills and restarts', async () => {
  const t = setup({
    live: {
      containers: [{
        name: 'app', image: HOST, command: ['sleep', '1000'],
        livenessProbe: { exec: { command: ['check-live'] }, periodSeconds: 1, failureThreshold: 2, terminationGracePeriodSeconds: 4 },
      }],
    },
  });
  await t.kubelet.start();
  await t.step(5);
  const first = idOf(cstatus(t.pod('live'), 'app'));
  assert.ok(first);
  // With the sync loop stopped, the failure has no way in: the probe fails, nothing is killed.
  t.kubelet.syncLoop.stop();
  t.flags.liveFail = true;
  await t.step(4);
  assert.ok(t.k8s('live').some((e) => e.reason === 'Unhealthy' && e.message === 'Liveness probe failed: dead\n'));
  assert.equal(t.kubelet.probes.list({ pod: 'live-node1' })[0]?.effective, 'failure');
  assert.deepEqual(t.cri.methods().filter((m) => m === 'stopContainer' || m === 'removeContainer'), [], 'no kill from the prober');
  // The loop back: the pod's next sync (its resync: 60 s plus the kubelet's jitter of up to 50 %) kills the container
  // with the probe's grace and restarts it.
  t.flags.liveFail = false;
  t.kubelet.syncLoop.start();
  await t.step(91);
  assert.deepEqual(t.stops(first), [4]);
  assert.ok(t.k8s('live').some((e) => e.reason === 'Killing' && e.message === 'Container app failed liveness probe, will be restarted'));
  const after = cstatus(t.pod('live'), 'app');
  assert.equal(after?.restartCount, 1);
  assert.ok(after?.state?.running);
  assert.notEqual(idOf(after), first);
  // The failure belonged to the old instance: the new one is probed afresh and kept.
  await t.step(5);
  assert.equal(cstatus(t.pod('live'), 'app')?.restartCount, 1);
  await t.kubelet.stop();
});

test('liveness failure is synced at once through the sync loop (no resync wait)', async () => {
  const t = setup({
    live: { containers: [{ name: 'app', image: HOST, livenessProbe: { exec: { command: ['check-live'] }, periodSeconds: 1, failureThreshold: 1 } }] },
  });
  await t.kubelet.start();
  await t.step(5);
  const first = idOf(cstatus(t.pod('live'), 'app'));
  t.flags.liveFail = true;
  await t.step(2);
  t.flags.liveFail = false;
  await t.step(2);
  assert.deepEqual(t.stops(first), [30], 'killed within seconds, the pod grace (no probe grace)');
  assert.ok((cstatus(t.pod('live'), 'app')?.restartCount ?? 0) >= 1);
  await t.kubelet.stop();
});

test('startup failure: killed with the startup probe grace and restarted by computePodActions', async () => {
  const t = setup({
    slow: {
      containers: [{
        name: 'app', image: HOST,
        startupProbe: { exec: { command: ['check-start'] }, periodSeconds: 1, failureThreshold: 2, terminationGracePeriodSeconds: 3 },
      }],
    },
  });
  await t.kubelet.start();
  await t.step(1);
  const first = idOf(cstatus(t.pod('slow'), 'app'));
  assert.ok(first);
  t.flags.startFail = true;
  await t.step(4);
  t.flags.startFail = false;
  await t.step(4);
  assert.deepEqual(t.stops(first), [3]);
  assert.ok(t.k8s('slow').some((e) => e.reason === 'Killing' && e.message === 'Container app failed startup probe, will be restarted'));
  assert.ok(t.k8s('slow').some((e) => e.reason === 'Unhealthy' && e.message === 'Startup probe failed: not up\n'));
  assert.equal(cstatus(t.pod('slow'), 'app')?.restartCount, 1);
  assert.equal(cstatus(t.pod('slow'), 'app')?.started, true);
  await t.kubelet.stop();
});

test('eviction: a kill update carrying Failed / Evicted; the pod worker applies it and stops the containers', async () => {
  const t = setup({ victim: { containers: [{ name: 'app', image: HOST }] } });
  await t.kubelet.start();
  await t.step(3);
  const id = idOf(cstatus(t.pod('victim'), 'app'));
  const pod = t.kubelet.podManager.getPodByName('default', 'victim-node1');
  assert.ok(pod && id);
  const message = 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. ';
  t.kubelet.workers.updatePod({ updateType: 'kill', pod, gracePeriodOverride: 0, killPodOptions: { evict: true, podStatusFunc: evictedStatus('Evicted', message) } });
  await t.step(3);
  assert.equal(t.stops(id).length, 1);
  const check = () => {
    const st = t.pod('victim')?.status;
    assert.equal(st?.phase, 'Failed');
    assert.equal(st?.reason, 'Evicted');
    assert.equal(st?.message, message);
    const dt = st?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual([dt?.status, dt?.reason, dt?.message], ['True', 'TerminationByKubelet', message]);
    assert.ok(cstatus(t.pod('victim'), 'app')?.state?.terminated);
  };
  check();
  await t.step(70); // resyncs, PLEG events, housekeeping: the status the kill carried stays
  check();
  assert.equal(t.creates('app'), 1, 'an evicted pod is not restarted');
  await t.kubelet.stop();
});

test('activeDeadlineSeconds: past the deadline the pod is Failed / DeadlineExceeded and its containers stopped', async () => {
  const t = setup({ job: { activeDeadlineSeconds: 5, containers: [{ name: 'work', image: HOST }] } });
  await t.kubelet.start();
  await t.step(3);
  const id = idOf(cstatus(t.pod('job'), 'work'));
  assert.ok(id);
  assert.equal(t.pod('job')?.status?.phase, 'Running');
  await t.step(5);
  const st = t.pod('job')?.status;
  assert.equal(st?.phase, 'Failed');
  assert.equal(st?.reason, 'DeadlineExceeded');
  assert.equal(st?.message, 'Pod was active on the node longer than the specified deadline');
  assert.deepEqual(t.stops(id), [30]);
  await t.step(30);
  assert.equal(t.pod('job')?.status?.reason, 'DeadlineExceeded');
  assert.equal(t.creates('work'), 1, 'not restarted');
  const evs = t.k8s('job').filter((e) => e.reason === 'DeadlineExceeded');
  assert.deepEqual(evs.map((e) => [e.eventType, e.message]), [['Normal', 'Pod was active on the node longer than the specified deadline']]);
  await t.kubelet.stop();
});
