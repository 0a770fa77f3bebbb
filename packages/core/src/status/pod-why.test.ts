// "Why isn't my pod running?" (#16 item 5): one table case per situation. The statuses are shaped as the kubelet
// writes them (reasons and messages from pkg/kubelet: images/image_manager.go "Back-off pulling image",
// kuberuntime_manager.go "back-off 40s restarting failed container=...", eviction/helpers.go "The node was low on
// resource: memory. Threshold quantity: 100Mi, available: 90Mi. ", lifecycle/predicate.go OutOf<resource>,
// prober/http.go "HTTP probe failed with statuscode: 503"); the expected texts are the ones issue #16 names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1ContainerStatus, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { explainPod, span, type WhyFacts } from './pod-why.ts';

const NOW = Date.parse('2026-11-26T06:00:00Z');
const ago = (s: number) => new Date(NOW - s * 1000).toISOString();

const cs = (name: string, more: Partial<V1ContainerStatus> = {}): V1ContainerStatus => ({
  name, image: 'busybox', imageID: '', ready: false, restartCount: 0, ...more,
});
const pod = (status: V1PodStatus, spec: Partial<V1Pod['spec']> = {}): V1Pod => ({
  metadata: { name: 'p', namespace: 'default', uid: 'u1' },
  spec: { containers: [{ name: 'app', image: 'busybox' }], ...spec },
  status,
});
const notReady = [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }];

const cases: Array<{ name: string; pod: V1Pod; facts?: WhyFacts; want: string | undefined; reason?: string }> = [
  {
    name: 'running and ready: nothing to explain',
    pod: pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [cs('app', { ready: true, started: true, state: { running: {} } })] }),
    want: undefined,
  },
  {
    name: 'bad image, first failure (ErrImagePull) with the pull error; next retry from the Failed event',
    pod: pod({ phase: 'Pending', containerStatuses: [cs('app', { image: 'localhost/x:1', state: { waiting: { reason: 'ErrImagePull', message: 'not found' } } })] }),
    facts: { now: NOW, events: [{ reason: 'Failed', message: 'Failed to pull image "localhost/x:1": not found', count: 3, lastTimestamp: ago(0) }] },
    want: 'image localhost/x:1 cannot be pulled (ErrImagePull: not found); next retry in 40 s',
    reason: 'ErrImagePull',
  },
  {
    name: 'bad image in back-off: the error comes from the last Failed event',
    pod: pod({ phase: 'Pending', containerStatuses: [cs('app', { image: 'localhost/x:1', state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "localhost/x:1"' } } })] }),
    facts: { now: NOW, events: [{ reason: 'Failed', message: 'Failed to pull image "localhost/x:1": not found', count: 1, lastTimestamp: ago(4) }, { reason: 'BackOff', message: 'Back-off pulling image "localhost/x:1"' }] },
    want: 'image localhost/x:1 cannot be pulled (ErrImagePull: not found); next retry in 6 s',
    reason: 'ImagePullBackOff',
  },
  {
    name: 'bad image in back-off, no event known: no made-up error, no retry time',
    pod: pod({ phase: 'Pending', containerStatuses: [cs('app', { image: 'localhost/x:1', state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "localhost/x:1"' } } })] }),
    want: 'image localhost/x:1 cannot be pulled (ErrImagePull); retrying',
  },
  {
    name: 'failing init container in CrashLoopBackOff',
    pod: pod(
      {
        phase: 'Pending',
        initContainerStatuses: [cs('migrate', { restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=migrate pod=p_default(u1)' } }, lastState: { terminated: { exitCode: 1, reason: 'Error' } } })],
        containerStatuses: [cs('app', { state: { waiting: { reason: 'PodInitializing' } } })],
      },
      { initContainers: [{ name: 'migrate', image: 'busybox' }] },
    ),
    want: 'waiting for init container `migrate` (exit 1, 4 restarts)',
    reason: 'CrashLoopBackOff',
  },
  {
    name: 'done init containers are passed over; a running one is waited for',
    pod: pod(
      {
        phase: 'Pending',
        initContainerStatuses: [cs('a', { state: { terminated: { exitCode: 0, reason: 'Completed' } } }), cs('b', { state: { running: {} } })],
        containerStatuses: [cs('app', { state: { waiting: { reason: 'PodInitializing' } } })],
      },
      { initContainers: [{ name: 'a' }, { name: 'b' }] },
    ),
    want: 'waiting for init container `b` (running)',
  },
  {
    name: 'crash-looping app container: exit, restarts, next restart from finishedAt + back-off',
    pod: pod({
      phase: 'Running', conditions: notReady,
      containerStatuses: [cs('app', { restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=app pod=p_default(u1)' } }, lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: new Date(NOW - 10_000) } } })],
    }),
    facts: { now: NOW },
    want: 'container `app` keeps crashing (exit 137 OOMKilled, 3 restarts); next retry in 30 s',
  },
  {
    name: 'evicted for memory',
    pod: pod({ phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 90Mi. Container app was using 200Mi, request is 0, has larger consumption of memory. ' }),
    want: 'evicted: memory.available 90Mi < 100Mi',
    reason: 'Evicted',
  },
  {
    name: 'admission refused',
    pod: pod({ phase: 'Failed', reason: 'OutOfmemory', message: 'Node didn\'t have enough resource: memory, requested: 1000, used: 0, capacity: 10' }),
    want: 'admission refused: OutOfmemory (Node didn\'t have enough resource: memory, requested: 1000, used: 0, capacity: 10)',
    reason: 'OutOfmemory',
  },
  {
    name: 'active deadline',
    pod: pod({ phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' }),
    want: 'active deadline passed: Pod was active on the node longer than the specified deadline',
  },
  {
    name: 'readiness probe failing: HTTP status, target, for how long (runs × period)',
    pod: pod({ phase: 'Running', conditions: notReady, containerStatuses: [cs('app', { started: true, state: { running: {} } })] }, { containers: [{ name: 'app', readinessProbe: { httpGet: { port: 8080, path: '/healthz' } } }] }),
    facts: { probes: [{ container: 'app', probeType: 'readiness', target: 'http://:8080/healthz', lastResult: 'failure', consecutive: 18, periodSeconds: 10, output: 'HTTP probe failed with statuscode: 503' }] },
    want: 'readiness probe failing for 3 m: HTTP 503 from :8080/healthz',
    reason: 'NotReady',
  },
  {
    name: 'readiness probe failing: the recorder\'s span of failures says for how long when given',
    pod: pod({ phase: 'Running', conditions: notReady, containerStatuses: [cs('app', { started: true, state: { running: {} } })] }),
    facts: { probes: [{ container: 'app', probeType: 'readiness', target: 'web:8080', lastResult: 'failure', consecutive: 2, periodSeconds: 10, failingForMs: 600_000, output: 'dial tcp 10.89.1.5:8080: connect: connection refused' }] },
    want: 'readiness probe failing for 10 m: dial tcp 10.89.1.5:8080: connect: connection refused (web:8080)',
  },
  {
    name: 'readiness probe with no failure known yet',
    pod: pod({ phase: 'Running', conditions: notReady, containerStatuses: [cs('app', { started: true, state: { running: {} } })] }, { containers: [{ name: 'app', readinessProbe: { exec: { command: ['true'] } } }] }),
    want: 'container `app` is not ready yet (readiness probe)',
  },
  {
    name: 'sandbox cannot be created: the status message names the runtime error',
    pod: pod({ phase: 'Pending', containerStatuses: [cs('app', { state: { waiting: { reason: 'ContainerCreating', message: 'Failed to create sandbox for pod "p_default(u1)": no free /24 left in 10.89.0.0/16 for network nodelet-embedded' } } })] }),
    want: 'sandbox cannot be created: no free /24 left in 10.89.0.0/16 for network nodelet-embedded; retrying',
    reason: 'CreatePodSandboxError',
  },
  {
    name: 'sandbox cannot be created: from the FailedCreatePodSandBox event when the status has no message',
    pod: pod({ phase: 'Pending', containerStatuses: [cs('app', { state: { waiting: { reason: 'ContainerCreating' } } })] }),
    facts: { events: [{ reason: 'FailedCreatePodSandBox', message: 'Failed to create pod sandbox: runtimeclass.node.k8s.io "missing" not found' }] },
    want: 'sandbox cannot be created: runtimeclass.node.k8s.io "missing" not found; retrying',
  },
  {
    name: 'container config error',
    pod: pod({ phase: 'Pending', containerStatuses: [cs('app', { state: { waiting: { reason: 'CreateContainerConfigError', message: 'configmap "cfg" not found' } } })] }),
    want: 'container `app` cannot start (CreateContainerConfigError: configmap "cfg" not found)',
  },
  {
    name: 'restartPolicy Never, container failed',
    pod: pod({ phase: 'Failed', containerStatuses: [cs('app', { state: { terminated: { exitCode: 2, reason: 'Error' } } })] }),
    want: 'failed: container `app` exit 2 Error',
  },
  { name: 'succeeded', pod: pod({ phase: 'Succeeded' }), want: undefined },
  { name: 'pending, nothing known yet', pod: pod({ phase: 'Pending' }), want: 'pending: the pod worker has not started it yet' },
];

for (const c of cases) {
  test(`why: ${c.name}`, () => {
    const got = explainPod(c.pod, c.facts);
    assert.equal(got?.text, c.want);
    if (c.reason) assert.equal(got?.reason, c.reason);
  });
}

test('span: whole seconds under 2 minutes, minutes under 2 hours, then hours', () => {
  assert.deepEqual([span(400), span(40_000), span(119_000), span(180_000), span(7_200_000)], ['1 s', '40 s', '119 s', '3 m', '2 h']);
});
