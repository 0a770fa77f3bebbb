// Ephemeral containers in the kuberuntime manager. Expectations are the kubelet's (v1.28
// kuberuntime_manager_test.go TestComputePodActionsWithInitAndEphemeralContainers: "No ephemeral containers
// running; start one", "Start second ephemeral container", "Ephemeral container exited; do not restart",
// "initialization in progress; start ephemeral container", "steady state; do nothing; ignore ephemeral
// container", sandbox re-creation and "Kill pod and do not restart ephemeral container"; kuberuntime_container.go
// startSpec.getTargetID and the TARGET pid namespace; kubelet_pods.go convertToAPIContainerStatuses for
// status.ephemeralContainerStatuses).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1EphemeralContainer, V1Pod } from '@kubernetes/client-node';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import type { ContainerConfig } from '../cri/types.ts';
import { KubeImageManager } from '../images/image-manager.ts';
import { generateApiPodStatus } from '../kubelet/pod-status.ts';
import { ReasonCache } from '../kubelet/reason-cache.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { computePodActions } from './pod-actions.ts';
import { KubeRuntimeManager } from './runtime-manager.ts';
import { runningPodFromStatus } from './runtime-status.ts';
import { container, cstatus, makePod, podStatus, sandbox } from './testing/builders.ts';
import type { EventSink } from './types.ts';

const app = container('app');
const init1 = container('init1');
const debug = (name: string, extra: Partial<V1EphemeralContainer> = {}): V1EphemeralContainer => ({ name, image: 'nodelet.local/host:latest', command: ['sh', '-c', 'sleep 1000'], ...extra });
function withEphemeral(pod: V1Pod, ecs: V1EphemeralContainer[]): V1Pod {
  return { ...pod, spec: { ...pod.spec!, ephemeralContainers: ecs } };
}
const ready = [sandbox('s1', 'ready')];

test('computePodActions: ephemeral containers without a runtime container are started once, never restarted', () => {
  const pod = withEphemeral(makePod({ containers: [app] }), [debug('debug1'), debug('debug2')]);
  const cases: Array<[string, ReturnType<typeof podStatus>, number[] | undefined]> = [
    ['no ephemeral container running: start both', podStatus(pod, ready, [cstatus(app, 'running')]), [0, 1]],
    ['the first runs: start the second', podStatus(pod, ready, [cstatus(app, 'running'), cstatus(container('debug1'), 'running')]), [1]],
    ['both exited: do not restart', podStatus(pod, ready, [cstatus(app, 'running'), cstatus(container('debug1'), 'exited', { exitCode: 1 }), cstatus(container('debug2'), 'exited')]), undefined],
    ['a created one is not started again either (it has a runtime container)', podStatus(pod, ready, [cstatus(app, 'running'), cstatus(container('debug1'), 'created'), cstatus(container('debug2'), 'running')]), undefined],
  ];
  for (const [name, status, want] of cases) {
    const a = computePodActions(pod, status);
    assert.deepEqual(a.ephemeralContainersToStart, want, name);
    assert.equal(a.killPod, false, name);
    assert.deepEqual(a.containersToStart, [], name);
    assert.deepEqual(a.containersToKill, [], `${name}: the running ephemeral container is not killed`);
  }
});

test('computePodActions: started while the pod initializes; not when the sandbox is re-created', () => {
  const pod = withEphemeral(makePod({ containers: [app], initContainers: [init1] }), [debug('debug')]);
  const initializing = computePodActions(pod, podStatus(pod, ready, [cstatus(init1, 'running')]));
  assert.deepEqual(initializing.ephemeralContainersToStart, [0]);
  assert.deepEqual(initializing.containersToStart, []);
  const dead = computePodActions(pod, podStatus(pod, [sandbox('s1', 'notready')], [cstatus(init1, 'exited', { exitCode: 1 })]));
  assert.equal(dead.createSandbox, true);
  assert.equal(dead.ephemeralContainersToStart, undefined);
  const never = withEphemeral(makePod({ containers: [app], restartPolicy: 'Never' }), [debug('debug')]);
  const killed = computePodActions(never, podStatus(never, [sandbox('s1', 'notready')], [cstatus(app, 'exited')]));
  assert.deepEqual([killed.killPod, killed.createSandbox, killed.ephemeralContainersToStart], [true, false, undefined]);
});

function setup() {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false, images: [] });
  const events: string[] = [];
  const sink: EventSink = (_p, type, reason, msg, fieldPath) => events.push(`${type} ${reason} ${fieldPath ?? ''}: ${msg}`);
  const images = new KubeImageManager({ cri, clock, logger: nullLogger, events: sink });
  const rt = new KubeRuntimeManager({ cri, clock, logger: nullLogger, images, events: sink }, { podLogsDir: '/var/log/pods', nodeName: 'node1', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } });
  const status = (pod: V1Pod) => rt.getPodStatus(pod.metadata!.uid!, pod.metadata!.name!, 'default');
  const sync = async (pod: V1Pod) => rt.syncPod(pod, await status(pod));
  const created = (name: string) => cri.callsOf<{ config: ContainerConfig }>('createContainer').filter((c) => c.config.metadata?.name === name);
  const idOf = (name: string) => [...cri.containers.values()].filter((c) => c.config.metadata?.name === name).at(-1)!.id;
  return { cri, events, rt, status, sync, created, idOf };
}

test('syncPod: the ephemeral container starts in the running pod, in the target container\'s PID namespace, once', async () => {
  const { cri, events, rt, status, sync, created, idOf } = setup();
  const pod = makePod({ name: 'web', containers: [app] });
  await sync(pod);
  const withDebug = withEphemeral(pod, [debug('debugger', { targetContainerName: 'app', stdin: true, tty: true })]);
  cri.resetCalls();
  const r = await sync(withDebug);
  assert.equal(r.error, undefined);
  const [cfg] = created('debugger');
  assert.deepEqual(cfg?.config.linux?.securityContext?.namespaceOptions, { network: 'POD', pid: 'TARGET', ipc: 'POD', targetId: idOf('app') });
  assert.deepEqual([cfg?.config.stdin, cfg?.config.tty, cfg?.config.logPath], [true, true, 'debugger/0.log']);
  assert.ok(events.includes('Normal Started spec.ephemeralContainers{debugger}: Started container debugger'), events.join('\n'));
  assert.deepEqual(created('app'), [], 'the pod is otherwise left alone');
  // It exits: the pod keeps running and it is not started again.
  cri.exitContainer(idOf('debugger'), { exitCode: 0 });
  cri.resetCalls();
  await sync(withDebug);
  assert.deepEqual(cri.methods().filter((m) => /^(create|start|stop|remove)/.test(m)), []);
  // Killing the pod stops it with the others.
  const second = withEphemeral(pod, [...withDebug.spec!.ephemeralContainers!, debug('debugger2')]);
  await sync(second);
  const running = runningPodFromStatus(await status(second));
  assert.deepEqual(running.containers.filter((c) => c.state === 'running').map((c) => c.name).sort(), ['app', 'debugger2']);
  await rt.killPod(second, running, { gracePeriodOverride: 0 });
  assert.deepEqual(cri.callsOf<{ containerId: string }>('stopContainer').map((c) => c.containerId).sort(), [idOf('app'), idOf('debugger2')].sort());
});

test('syncPod: shareProcessNamespace keeps the pod\'s PID namespace; a target that is not running is CreateContainerConfigError', async () => {
  const { events, sync, created } = setup();
  const shared = makePod({ name: 'shared', containers: [app] });
  shared.spec!.shareProcessNamespace = true;
  await sync(shared);
  await sync(withEphemeral(shared, [debug('debugger', { targetContainerName: 'app' })]));
  assert.equal(created('debugger')[0]?.config.linux?.securityContext?.namespaceOptions?.pid, 'POD');
  const { sync: sync2, created: created2, events: events2 } = setup();
  const pod = makePod({ name: 'initing', containers: [app], initContainers: [container('init1', { command: ['sleep', '100'] })] });
  await sync2(pod);
  const r = await sync2(withEphemeral(pod, [debug('debugger', { targetContainerName: 'app' })]));
  assert.deepEqual(r.error, { reason: 'CreateContainerConfigError', message: 'unable to find target container app' });
  assert.deepEqual(created2('debugger'), []);
  assert.ok(events2.includes('Warning Failed spec.ephemeralContainers{debugger}: Error: unable to find target container app'), events2.join('\n'));
  assert.ok(events.length > 0);
});

test('generateApiPodStatus: ephemeralContainerStatuses (state, containerID, image, imageID; never ready, no started)', () => {
  const pod = withEphemeral(makePod({ name: 'p', containers: [app] }), [debug('running-one'), debug('exited-one'), debug('new-one')]);
  const rt = podStatus(pod, ready, [
    cstatus(app, 'running'),
    cstatus(container('running-one'), 'running', { imageId: 'sha256:abc' }),
    cstatus(container('exited-one'), 'exited', { exitCode: 1, reason: 'Error' }),
  ]);
  const s = generateApiPodStatus(pod, rt, new ReasonCache(), false, undefined, ['192.0.2.2']);
  const byName = new Map((s.ephemeralContainerStatuses ?? []).map((c) => [c.name, c]));
  assert.deepEqual([...byName.keys()], ['running-one', 'exited-one', 'new-one']);
  const run = byName.get('running-one')!;
  assert.deepEqual(
    { ready: run.ready, started: run.started, image: run.image, imageID: run.imageID, containerID: run.containerID, running: run.state?.running !== undefined },
    { ready: false, started: undefined, image: 'nodelet.local/host:latest', imageID: 'sha256:abc', containerID: 'fake://running-one-running-0', running: true },
  );
  assert.equal(byName.get('exited-one')!.state?.terminated?.exitCode, 1);
  assert.deepEqual(byName.get('new-one')!.state, { waiting: { reason: 'ContainerCreating' } });
  assert.equal(s.phase, 'Running');
  assert.equal(s.conditions?.find((c) => c.type === 'Ready')?.status, 'True', 'ephemeral containers do not make the pod unready');
  assert.equal(generateApiPodStatus(makePod({ name: 'q' }), podStatus(pod, ready), new ReasonCache()).ephemeralContainerStatuses, undefined);
});
