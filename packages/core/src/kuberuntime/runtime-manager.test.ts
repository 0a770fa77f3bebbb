import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { CriError, type ContainerConfig, type PodSandboxConfig } from '../cri/types.ts';
import { KubeImageManager } from '../images/image-manager.ts';
import { KubeRuntimeManager } from './runtime-manager.ts';
import { runningPodFromStatus } from './runtime-status.ts';
import type { EventSink } from './types.ts';
import type { InternalContainerLifecycle } from './start-container.ts';
import { container, makePod } from './testing/builders.ts';

function setup(opts: { images?: string[]; lifecycle?: InternalContainerLifecycle } = {}) {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false, images: opts.images ?? [] });
  const events: string[] = [];
  const sink: EventSink = (_p, _t, reason, msg) => events.push(`${reason}: ${msg}`);
  const images = new KubeImageManager({ cri, clock, logger: nullLogger, events: sink });
  const rt = new KubeRuntimeManager(
    { cri, clock, logger: nullLogger, images, events: sink, ...(opts.lifecycle ? { lifecycle: opts.lifecycle } : {}) },
    { podLogsDir: '/var/log/pods', nodeName: 'node1', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } },
  );
  const sync = async (pod: V1Pod) => rt.syncPod(pod, await rt.getPodStatus(pod.metadata!.uid!, pod.metadata!.name!, 'default'));
  return { clock, cri, events, rt, sync };
}

function containerIdOf(cri: FakeRuntime, name: string): string {
  const ids = [...cri.containers.values()].filter((c) => c.config.metadata?.name === name).map((c) => c.id);
  return ids[ids.length - 1]!;
}

test('syncPod creates the sandbox with the pod config and starts the container', async () => {
  const { cri, events, sync } = setup();
  const pod = makePod({ name: 'web', containers: [container('app', { ports: [{ containerPort: 80, hostPort: 8080 }] })], grace: 5 });
  pod.metadata!.labels = { app: 'web' };
  const r = await sync(pod);
  assert.equal(r.error, undefined);
  const sb = cri.callsOf<{ config: PodSandboxConfig }>('runPodSandbox')[0]!.config;
  assert.equal(sb.logDirectory, '/var/log/pods/default_web_uid-web');
  assert.equal(sb.hostname, 'web');
  assert.deepEqual(sb.labels, { app: 'web', 'io.kubernetes.pod.name': 'web', 'io.kubernetes.pod.namespace': 'default', 'io.kubernetes.pod.uid': 'uid-web' });
  assert.equal(sb.linux?.cgroupParent, '/kubepods/besteffort/poduid-web');
  assert.equal(sb.portMappings?.[0]?.hostPort, 8080);
  const cc = cri.callsOf<{ config: ContainerConfig }>('createContainer')[0]!.config;
  assert.equal(cc.logPath, 'app/0.log');
  assert.equal(cc.annotations?.['io.kubernetes.container.restartCount'], '0');
  assert.equal(cc.annotations?.['io.kubernetes.pod.terminationGracePeriod'], '5');
  assert.equal(cc.labels?.['io.kubernetes.container.name'], 'app');
  assert.ok(cc.annotations?.['io.kubernetes.container.hash']);
  assert.deepEqual(events.filter((e) => /^(Created|Started)/.test(e)), ['Created: Created container: app', 'Started: Started container app']);
  // second sync: nothing to do
  cri.resetCalls();
  await sync(pod);
  assert.deepEqual(cri.methods().filter((m) => /^(run|create|start|stop)/.test(m)), []);
});

test('crash loop: restarts after 0s, 10s, 20s, 40s and restartCount increments', async () => {
  const { clock, cri, sync } = setup();
  const pod = makePod({ name: 'crash' });
  await sync(pod);
  const delays: number[] = [];
  const reasons = new Set<string>();
  for (let i = 0; i < 4; i++) {
    cri.exitContainer(containerIdOf(cri, 'app'), { exitCode: 1 });
    const before = cri.callsOf('createContainer').length;
    let waited = 0;
    for (;;) {
      const r = await sync(pod);
      if (r.error) reasons.add(`${r.error.reason} ${/back-off (\S+)/.exec(r.error.message)?.[1]}`);
      if (cri.callsOf('createContainer').length > before) break;
      await clock.step(1000);
      waited += 1000;
    }
    delays.push(waited);
  }
  assert.deepEqual(delays, [0, 10_000, 20_000, 40_000]);
  assert.deepEqual([...reasons], ['CrashLoopBackOff 10s', 'CrashLoopBackOff 20s', 'CrashLoopBackOff 40s']);
  const attempts = cri.callsOf<{ config: ContainerConfig }>('createContainer').map((c) => c.config.metadata?.attempt);
  assert.deepEqual(attempts, [0, 1, 2, 3, 4]);
  // The dead instances stay for container GC (--maximum-dead-containers-per-container): no removal on restart.
  assert.deepEqual(cri.callsOf('removeContainer'), []);
});

test('restartPolicy Never: a dead container is not restarted and the sandbox is stopped', async () => {
  const { cri, sync } = setup();
  const pod = makePod({ name: 'job', restartPolicy: 'Never' });
  await sync(pod);
  cri.exitContainer(containerIdOf(cri, 'app'), { exitCode: 0 });
  await sync(pod);
  await sync(pod);
  assert.equal(cri.callsOf('createContainer').length, 1);
  assert.ok(cri.callsOf('stopPodSandbox').length >= 1);
  assert.equal(cri.callsOf('runPodSandbox').length, 1);
});

test('init containers run first, in order', async () => {
  const { cri, sync } = setup();
  const pod = makePod({ name: 'init', initContainers: [container('i1'), container('i2')], containers: [container('app')] });
  const started: string[] = [];
  const names = () => cri.callsOf<{ config: ContainerConfig }>('createContainer').map((c) => c.config.metadata?.name ?? '');
  await sync(pod);
  started.push(...names());
  await sync(pod); // i1 still running: nothing
  assert.deepEqual(names(), ['i1']);
  cri.exitContainer(containerIdOf(cri, 'i1'), { exitCode: 0 });
  await sync(pod);
  assert.deepEqual(names(), ['i1', 'i2']);
  cri.exitContainer(containerIdOf(cri, 'i2'), { exitCode: 0 });
  await sync(pod);
  assert.deepEqual(names(), ['i1', 'i2', 'app']);
});

test('pruneInitContainersBeforeStart: a failed init container keeps only its newest dead instance when it runs again', async () => {
  // As the kubelet's TestPruneInitContainers (kuberuntime_manager_test.go): the last execution of each init container is kept.
  const stopped: Array<{ attempt: number | undefined; present: boolean }> = [];
  const lifecycle: InternalContainerLifecycle = {
    preCreateContainer: () => undefined,
    preStartContainer: () => undefined,
    postStopContainer: (id) => void stopped.push({ attempt: cri.containers.get(id)?.config.metadata?.attempt, present: cri.containers.has(id) }),
  };
  const { clock, cri, sync } = setup({ lifecycle });
  const pod = makePod({ name: 'initfail', initContainers: [container('i1')], containers: [container('app')] });
  await sync(pod);
  for (let i = 0; i < 3; i++) {
    cri.exitContainer(containerIdOf(cri, 'i1'), { exitCode: 1 });
    await clock.step(300_000); // past the back-off
    await sync(pod);
  }
  const i1 = [...cri.containers.values()].filter((c) => c.config.metadata?.name === 'i1').map((c) => [c.config.metadata?.attempt, c.state]);
  assert.deepEqual(i1, [[2, 'CONTAINER_EXITED'], [3, 'CONTAINER_RUNNING']]);
  // PostStopContainer (the topology manager's RemoveContainer) before each removal, as kuberuntime's removeContainer.
  assert.deepEqual(stopped, [{ attempt: 0, present: true }, { attempt: 1, present: true }]);
});

test('failures map to kubelet reasons', async () => {
  const cases = [
    { name: 'image never pulled', c: container('a', { image: 'nope:1', imagePullPolicy: 'Never' }), want: 'ErrImageNeverPull' },
    { name: 'bad image', c: container('a', { image: 'UPPER' }), want: 'InvalidImageName' },
    { name: 'missing configmap', c: container('a', { env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }] }), want: 'CreateContainerConfigError' },
    { name: 'create fails', c: container('a'), fail: 'createContainer' as const, want: 'CreateContainerError' },
    { name: 'start fails', c: container('a'), fail: 'startContainer' as const, want: 'RunContainerError' },
    { name: 'sandbox fails', c: container('a'), fail: 'runPodSandbox' as const, want: 'CreatePodSandboxError', event: 'FailedCreatePodSandBox' },
  ];
  for (const tc of cases) {
    const { cri, events, sync } = setup();
    if (tc.fail) cri.failNext(tc.fail);
    const r = await sync(makePod({ containers: [tc.c] }));
    assert.equal(r.error?.reason, tc.want, tc.name);
    if (tc.event) assert.ok(events.some((e) => e.startsWith(tc.event)), tc.name);
  }
});

test('killPod stops containers with the grace period, then the sandbox', async () => {
  const { cri, rt, sync, events } = setup();
  const pod = makePod({ name: 'g', grace: 7 });
  await sync(pod);
  const status = await rt.getPodStatus('uid-g', 'g', 'default');
  await rt.killPod(pod, runningPodFromStatus(status));
  assert.deepEqual(cri.callsOf<{ timeout: number }>('stopContainer').map((r) => r.timeout), [7]);
  assert.equal(cri.methods().filter((m) => m.startsWith('stop')).join(','), 'stopContainer,stopPodSandbox');
  assert.ok(events.includes('Killing: Stopping container app'));
  // without the pod (orphan), the grace period comes from the container annotation; override wins
  cri.resetCalls();
  await sync(pod);
  const s2 = await rt.getPodStatus('uid-g', 'g', 'default');
  await rt.killPod(undefined, runningPodFromStatus(s2));
  assert.deepEqual(cri.callsOf<{ timeout: number }>('stopContainer').map((r) => r.timeout), [7]);
});

test('downward API env: hostNetwork pods get the node IP as status.podIP; every pod gets status.hostIP', async () => {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false, images: [] });
  const images = new KubeImageManager({ cri, clock, logger: nullLogger, events: () => undefined });
  const rt = new KubeRuntimeManager(
    { cri, clock, logger: nullLogger, images, events: () => undefined },
    { podLogsDir: '/var/log/pods', nodeName: 'node1', hostIPs: ['192.0.2.7'], crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } },
  );
  const env = [
    { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    { name: 'HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
  ];
  // The fake runtime, as containerd, reports no IP for a sandbox in the node's network namespace.
  const table: Array<{ hostNetwork: boolean; want: Record<string, string> }> = [
    { hostNetwork: true, want: { POD_IP: '192.0.2.7', HOST_IP: '192.0.2.7' } },
    { hostNetwork: false, want: { POD_IP: '10.88.0.3', HOST_IP: '192.0.2.7' } },
  ];
  for (const [i, row] of table.entries()) {
    const pod = makePod({ name: `ip${i}`, containers: [container('app', { env })] });
    pod.spec!.hostNetwork = row.hostNetwork;
    await rt.syncPod(pod, await rt.getPodStatus(pod.metadata!.uid!, pod.metadata!.name!, 'default'));
    const cc = cri.callsOf<{ config: ContainerConfig }>('createContainer').at(-1)!.config;
    const got = Object.fromEntries((cc.envs ?? []).filter((e) => e.key === 'POD_IP' || e.key === 'HOST_IP').map((e) => [e.key, String(e.value)]));
    assert.deepEqual(got, row.want, `hostNetwork=${row.hostNetwork}`);
  }
});

const instancesOf = (cri: FakeRuntime, name: string) =>
  [...cri.containers.values()].filter((c) => c.config.metadata?.name === name).map((c) => [c.config.metadata?.attempt ?? 0, c.state]);

test('two running instances of a container (an older agent left them): the older is stopped, nothing started', async () => {
  const { clock, cri, events, sync } = setup();
  const pod = makePod({ name: 'dup' });
  await sync(pod);
  const first = cri.callsOf<{ podSandboxId: string; config: ContainerConfig; sandboxConfig: PodSandboxConfig }>('createContainer')[0]!;
  await clock.step(1_000);
  const annotations = { ...first.config.annotations, 'io.kubernetes.container.restartCount': '1' };
  const extra = await cri.createContainer({ ...first, config: { ...first.config, metadata: { name: 'app', attempt: 1 }, annotations } });
  await cri.startContainer({ containerId: extra.containerId });
  cri.resetCalls();
  const r = await sync(pod);
  assert.equal(r.error, undefined);
  assert.deepEqual(instancesOf(cri, 'app'), [[0, 'CONTAINER_EXITED'], [1, 'CONTAINER_RUNNING']]);
  assert.deepEqual(cri.callsOf('createContainer'), []);
  assert.ok(events.some((e) => e.startsWith('Killing: Container app has a newer instance')), events.join('\n'));
});

test('a created container is removed before its next attempt; while the runtime refuses (start in flight) none is made', async () => {
  const { cri, sync } = setup();
  const pod = makePod({ name: 'nostart' });
  cri.failNext('startContainer');
  assert.equal((await sync(pod)).error?.reason, 'RunContainerError');
  assert.deepEqual(instancesOf(cri, 'app'), [[0, 'CONTAINER_CREATED']]);
  // containerd refuses RemoveContainer while a start is in flight
  cri.failNext('removeContainer', new CriError('UNKNOWN', 'container is in starting state, can\'t be removed'));
  const refused = await sync(pod);
  assert.equal(refused.error?.reason, 'KillContainerError');
  assert.deepEqual(instancesOf(cri, 'app'), [[0, 'CONTAINER_CREATED']], 'no attempt 1 beside attempt 0');
  assert.equal((await sync(pod)).error, undefined);
  assert.deepEqual(instancesOf(cri, 'app'), [[1, 'CONTAINER_RUNNING']]);
});

test('a new sandbox: its containers\' image status is asked while RunPodSandbox runs, not again after; the events keep their order', async () => {
  const { cri, events, sync } = setup({ images: ['present:1'] });
  const pod = makePod({ name: 'web', containers: [container('app', { image: 'present:1', imagePullPolicy: 'IfNotPresent' })] });
  const release = cri.holdNext('runPodSandbox');
  const done = sync(pod);
  const asked = () => cri.methods().filter((m) => m === 'runPodSandbox' || m === 'imageStatus').sort();
  for (let i = 0; i < 20 && asked().length < 2; i++) await new Promise((r) => setImmediate(r));
  assert.deepEqual(asked(), ['imageStatus', 'runPodSandbox'], 'asked while RunPodSandbox is held');
  assert.equal(events.length, 0, 'no event before the sandbox');
  release();
  assert.equal((await done).error, undefined);
  assert.equal(cri.callsOf('imageStatus').length, 1, 'EnsureImageExists and getImageUser used that answer');
  assert.deepEqual(events.map((e) => e.split(':')[0]), ['Pulled', 'Created', 'Started']);
});
