import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import type { ContainerConfig } from '../cri/types.ts';
import { createKubelet } from './kubelet.ts';
import { MemoryManifestFs } from './testing/memory-manifest-fs.ts';

const HOST = 'nodelet.local/host:latest';

function manifest(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec });
}

function setup(eventedPleg = false) {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false });
  const fs = new MemoryManifestFs('/manifests');
  fs.put('web.json', manifest('web', { terminationGracePeriodSeconds: 7, containers: [{ name: 'app', image: HOST, command: ['sleep', '1000'] }] }));
  fs.put('job.json', manifest('job', { restartPolicy: 'Never', containers: [{ name: 'work', image: HOST, command: ['true'] }] }));
  fs.put('crash.json', manifest('crash', { containers: [{ name: 'boom', image: HOST, command: ['false'] }] }));
  fs.put('init.json', manifest('init', { initContainers: [{ name: 'i1', image: HOST }, { name: 'i2', image: HOST }], containers: [{ name: 'main', image: HOST }] }));
  fs.put('bad.json', manifest('bad', { containers: [{ name: 'c', image: 'registry.invalid/missing:1' }] }));
  const kubelet = createKubelet(
    { cri, clock, logger: nullLogger, manifestFs: fs },
    {
      nodeName: 'node1',
      podManifestPath: '/manifests',
      fileCheckFrequencyMs: 2_000,
      httpCheckFrequencyMs: 20_000,
      podLogsDir: '/var/log/pods',
      rootDir: '/var/lib/nodelet',
      maxPods: 110,
      plegRelistPeriodMs: 1_000,
      plegRelistThresholdMs: 180_000,
      crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 },
      runtimeEndpoint: 'fake:///runtime',
      kubeletVersion: 'v1.34.0-nodelet',
      eventedPleg,
    },
  );
  return { clock, cri, fs, kubelet };
}

const containersNamed = (cri: FakeRuntime, name: string) => [...cri.containers.values()].filter((c) => c.config.metadata?.name === name);

/** Scripted container behaviour: crash/job/init containers end by themselves. */
function behave(cri: FakeRuntime): void {
  for (const c of cri.containers.values()) {
    if (c.state !== 'CONTAINER_RUNNING') continue;
    const name = c.config.metadata?.name;
    if (name === 'boom') cri.exitContainer(c.id, { exitCode: 1 });
    if (name === 'work' || name === 'i1' || name === 'i2') cri.exitContainer(c.id, { exitCode: 0 });
  }
}

function status(pod: V1Pod | undefined, name: string): V1ContainerStatus | undefined {
  return [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])].find((s) => s.name === name);
}

test('kubelet runs static pods on the fake runtime through their lifecycles', async () => {
  const { clock, cri, fs, kubelet } = setup();
  const waiting: Record<string, Set<string>> = {};
  kubelet.events.subscribe((e) => {
    if (e.type !== 'podStatus') return;
    for (const c of e.containers) if (c.state === 'waiting' && c.reason) (waiting[c.name] ??= new Set()).add(c.reason);
  });
  await kubelet.start();
  const crashStarts: number[] = [];
  let lastCount = 0;
  for (let s = 0; s < 120; s++) {
    await clock.step(1_000);
    const n = cri.callsOf<{ config: ContainerConfig }>('createContainer').filter((r) => r.config.metadata?.name === 'boom').length;
    if (n > lastCount) crashStarts.push(clock.now());
    lastCount = n;
    behave(cri);
  }
  const pod = (n: string) => kubelet.getPod('default', `${n}-node1`);

  // running pod
  assert.equal(pod('web')?.status?.phase, 'Running');
  const app = status(pod('web'), 'app');
  assert.ok(app?.state?.running);
  assert.equal(app?.ready, true);
  assert.equal(app?.started, true);
  assert.equal(app?.restartCount, 0);
  assert.match(app?.containerID ?? '', /^fake:\/\/container-/);
  assert.match(app?.imageID ?? '', /^sha256:/);
  assert.equal(pod('web')?.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');

  // completing job
  assert.equal(pod('job')?.status?.phase, 'Succeeded');
  assert.equal(status(pod('job'), 'work')?.state?.terminated?.reason, 'Completed');
  assert.equal(containersNamed(cri, 'work').length, 1, 'a Never pod is not restarted');

  // crash loop: restarts with growing delays, CrashLoopBackOff shown, restartCount grows, lastState kept
  const gaps = crashStarts.slice(1).map((t, i) => Math.round((t - crashStarts[i]!) / 1000));
  assert.ok(gaps.length >= 4, `gaps ${gaps}`);
  assert.ok(gaps[0]! <= 2, `first restart is immediate: ${gaps}`);
  assert.deepEqual(gaps.slice(1, 4), [10, 20, 40]);
  for (let i = 2; i < gaps.length; i++) assert.ok(gaps[i]! > gaps[i - 1]!, `growing delays: ${gaps}`);
  assert.ok(waiting.boom?.has('CrashLoopBackOff'));
  const boom = status(pod('crash'), 'boom');
  assert.ok((boom?.restartCount ?? 0) >= 4);
  assert.equal(boom?.lastState?.terminated?.exitCode, 1);
  assert.equal(pod('crash')?.status?.phase, 'Running');

  // init containers first, in order
  const order = cri.callsOf<{ config: ContainerConfig }>('createContainer').map((r) => r.config.metadata?.name).filter((n) => n === 'i1' || n === 'i2' || n === 'main');
  assert.deepEqual(order, ['i1', 'i2', 'main']);
  assert.equal(status(pod('init'), 'i2')?.state?.terminated?.reason, 'Completed');
  assert.ok(status(pod('init'), 'main')?.state?.running);
  assert.ok(waiting.main?.has('PodInitializing'));

  // unknown image
  assert.ok(waiting.c?.has('ErrImagePull'), JSON.stringify([...(waiting.c ?? [])]));
  assert.ok(waiting.c?.has('ImagePullBackOff'));
  assert.equal(pod('bad')?.status?.phase, 'Pending');

  // health and node
  assert.equal(kubelet.healthz().ok, true, JSON.stringify(kubelet.healthz()));
  assert.equal(kubelet.node().runtimeReady, true);
  assert.equal(kubelet.node().runtime?.name, 'fake');
  assert.equal(kubelet.getPods().length, 5);

  // removal of the manifest → killed with its grace period, sandbox stopped
  cri.resetCalls();
  const webId = containersNamed(cri, 'app')[0]!.id;
  fs.remove('web.json');
  for (let s = 0; s < 5; s++) await clock.step(1_000);
  assert.deepEqual(cri.callsOf<{ containerId: string; timeout: number }>('stopContainer').filter((r) => r.containerId === webId).map((r) => r.timeout), [7]);
  assert.ok(cri.methods().indexOf('stopContainer') < cri.methods().indexOf('stopPodSandbox'));
  assert.ok(cri.callsOf('stopPodSandbox').length >= 1);
  assert.equal(kubelet.getPod('default', 'web-node1'), undefined);
  assert.ok(kubelet.events.recent({ types: ['k8sEvent'] }, 1000).some((e) => e.type === 'k8sEvent' && e.reason === 'Killing' && e.involvedObject.name === 'web-node1'));

  // container GC removes the dead pod's containers and sandbox; desired pods keep theirs
  for (let s = 0; s < 61; s++) await clock.step(1_000);
  assert.equal(containersNamed(cri, 'app').length, 0);
  assert.equal(containersNamed(cri, 'work').length, 1);
  assert.equal([...cri.sandboxes.values()].filter((sb) => sb.config.metadata?.name === 'web-node1').length, 0);

  await kubelet.stop();
  await kubelet.stop();
  assert.equal(clock.pending(), 0, 'stop cancels every timer');
  assert.ok([...cri.containers.values()].some((c) => c.state === 'CONTAINER_RUNNING'), 'stop leaves containers running');
});

test('an orphaned pod in the runtime (not in any source) is killed by housekeeping', async () => {
  const { clock, cri, fs, kubelet } = setup();
  for (const f of [...fs.files.keys()]) fs.remove(f.slice('/manifests/'.length));
  const sb = await cri.runPodSandbox({ config: { metadata: { name: 'ghost', namespace: 'default', uid: 'ghost-uid' }, labels: { 'io.kubernetes.pod.uid': 'ghost-uid', 'io.kubernetes.pod.name': 'ghost', 'io.kubernetes.pod.namespace': 'default' } } });
  const c = await cri.createContainer({ podSandboxId: sb.podSandboxId, config: { metadata: { name: 'x' }, image: { image: HOST }, labels: { 'io.kubernetes.pod.uid': 'ghost-uid', 'io.kubernetes.container.name': 'x' }, annotations: { 'io.kubernetes.pod.terminationGracePeriod': '4' } } });
  await cri.startContainer({ containerId: c.containerId });
  await kubelet.start();
  for (let s = 0; s < 5; s++) await clock.step(1_000);
  assert.deepEqual(cri.callsOf<{ timeout: number }>('stopContainer').map((r) => r.timeout), [4]);
  assert.equal(cri.sandboxes.get(sb.podSandboxId)?.state, 'SANDBOX_NOTREADY');
  await kubelet.stop();
});

test('runtime unreachable: not healthy, node says so, recovers', async () => {
  const { clock, cri, kubelet } = setup();
  const { CriError } = await import('../cri/types.ts');
  const down = new CriError('UNAVAILABLE', 'unreachable', { details: 'connect ENOENT /run/x.sock' });
  cri.failAlways('version', down);
  cri.failAlways('listPodSandbox', down);
  await kubelet.start();
  await clock.step(1_000);
  const h = kubelet.healthz();
  assert.equal(h.ok, false);
  assert.match(h.checks.find((c) => c.name === 'runtime')?.message ?? '', /no runtime socket/);
  assert.equal(kubelet.node().runtimeReady, false);
  await clock.step(181_000);
  assert.match(kubelet.healthz().checks.find((c) => c.name === 'pleg')?.message ?? '', /pleg was last seen active|yet to be successful/);
  cri.clearFailures();
  await clock.step(31_000);
  assert.equal(kubelet.node().runtimeReady, true);
  assert.ok(kubelet.events.recent({ types: ['runtime'] }).length >= 2);
  await kubelet.stop();
});

test('evented PLEG: a container death shows on the pod status with no time passing, before its restart', async () => {
  const { clock, cri, kubelet } = setup(true);
  await kubelet.start();
  for (let s = 0; s < 5; s++) await clock.step(1_000);
  assert.ok(status(kubelet.getPod('default', 'web-node1'), 'app')?.state?.running);
  const app = containersNamed(cri, 'app')[0]!;
  let shownAt: number | undefined;
  kubelet.events.subscribe((e) => {
    if (e.type !== 'podStatus' || e.pod.name !== 'web-node1' || shownAt !== undefined) return;
    const s = e.status.containerStatuses?.find((c) => c.name === 'app');
    if (s?.state?.terminated?.exitCode === 137 || s?.lastState?.terminated?.exitCode === 137) shownAt = cri.calls.length;
  });
  cri.resetCalls();
  cri.exitContainer(app.id, { exitCode: 137 });
  await clock.step(0);
  assert.ok(shownAt !== undefined, 'the exit is on the pod status without any timer firing');
  const creates = cri.methods().map((m, i) => [m, i] as const).filter(([m]) => m === 'createContainer');
  assert.ok(creates.every(([, i]) => i >= shownAt!), 'the status went out before the restart work began');
  // The event carries the whole pod: what is published is built from it (the kubelet's evented PLEG, GeneratePodStatus
  // with the termination message), with no read of the pod and no timer.
  assert.deepEqual(cri.methods().slice(0, shownAt).filter((m) => m !== 'getContainerEvents'), [], 'no runtime call before the status');
  await kubelet.stop();
});
