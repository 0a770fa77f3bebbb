// The API status of a pod with a sidecar, as the kubelet generates it (kubelet_pods.go generateAPIPodStatus with
// SidecarContainers; status/generate.go): the sidecar shows in status.initContainerStatuses as running / started /
// ready, pod Ready needs it ready, PodInitialized waits for it to start, and a restartPolicy Never pod whose app
// container exited 0 is Running while the sidecar runs and Succeeded once it was stopped (exit 137 ignored).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1PodStatus } from '@kubernetes/client-node';
import { generateApiPodStatus, type ProbeStatusFiller } from './pod-status.ts';
import { ReasonCache } from './reason-cache.ts';
import { container, cstatus, makePod, podStatus, sandbox } from '../kuberuntime/testing/builders.ts';
import type { ContainerStatus } from '../container/types.ts';

const proxy = container('proxy', { restartPolicy: 'Always', readinessProbe: { exec: { command: ['ready'] } } });
const app = container('app');

function statusOf(restartPolicy: 'Always' | 'Never', containers: ContainerStatus[], fill?: ProbeStatusFiller): V1PodStatus {
  const pod = makePod({ initContainers: [proxy], containers: [app], restartPolicy });
  return generateApiPodStatus(pod, podStatus(pod, [sandbox('sb', 'ready')], containers), new ReasonCache(), false, fill, ['192.0.2.2']);
}
const cond = (s: V1PodStatus, type: string) => {
  const c = s.conditions?.find((x) => x.type === type);
  return [c?.status, c?.reason, c?.message];
};
/** The prober's view of the sidecar: started / ready as given (app containers untouched). */
const sidecarProbes = (started: boolean, ready: boolean): ProbeStatusFiller => (_uid, st) => {
  for (const c of st.initContainerStatuses ?? []) if (c.name === 'proxy') Object.assign(c, { started, ready });
};

test('sidecar running and ready, app running: Running, Initialized, Ready; the sidecar in initContainerStatuses', () => {
  const s = statusOf('Always', [cstatus(app, 'running'), cstatus(proxy, 'running')], sidecarProbes(true, true));
  assert.equal(s.phase, 'Running');
  const side = s.initContainerStatuses?.[0];
  assert.deepEqual([side?.name, Boolean(side?.state?.running), side?.started, side?.ready], ['proxy', true, true, true]);
  assert.deepEqual(cond(s, 'Initialized'), ['True', undefined, undefined]);
  assert.deepEqual(cond(s, 'Ready'), ['True', undefined, undefined]);
});

test('sidecar not ready: pod Ready and ContainersReady False naming it', () => {
  const s = statusOf('Always', [cstatus(app, 'running'), cstatus(proxy, 'running')], sidecarProbes(true, false));
  assert.equal(s.phase, 'Running');
  assert.deepEqual(cond(s, 'ContainersReady'), ['False', 'ContainersNotReady', 'containers with unready status: [proxy]']);
  assert.deepEqual(cond(s, 'Ready'), ['False', 'ContainersNotReady', 'containers with unready status: [proxy]']);
});

test('sidecar running, not started yet: Pending, not Initialized, the app waits PodInitializing', () => {
  const s = statusOf('Always', [cstatus(proxy, 'running')], sidecarProbes(false, false));
  assert.equal(s.phase, 'Pending');
  assert.deepEqual(cond(s, 'Initialized'), ['False', 'ContainersNotInitialized', 'containers with incomplete status: [proxy]']);
  assert.equal(s.containerStatuses?.[0]?.state?.waiting?.reason, 'PodInitializing');
});

test('restartPolicy Never: the app exited 0 — Running while the sidecar runs, Succeeded once it was stopped', () => {
  const running = statusOf('Never', [cstatus(app, 'exited'), cstatus(proxy, 'running')], sidecarProbes(true, true));
  assert.equal(running.phase, 'Running');
  const done = statusOf('Never', [cstatus(app, 'exited'), cstatus(proxy, 'exited', { exitCode: 137, reason: 'Error' })]);
  assert.equal(done.phase, 'Succeeded');
  assert.deepEqual(cond(done, 'Initialized'), ['True', 'PodCompleted', undefined]);
  assert.deepEqual(cond(done, 'Ready'), ['False', 'PodCompleted', undefined]);
  assert.equal(done.initContainerStatuses?.[0]?.state?.terminated?.exitCode, 137);
});

test('restartPolicy Never: the app failed — Failed once the sidecar was stopped', () => {
  const done = statusOf('Never', [cstatus(app, 'exited', { exitCode: 2, reason: 'Error' }), cstatus(proxy, 'exited', { exitCode: 137, reason: 'Error' })]);
  assert.equal(done.phase, 'Failed');
});
