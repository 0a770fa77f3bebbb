// The evented PLEG builds a pod's status from a runtime event that carries the whole pod (the kubelet's evented
// PLEG: GeneratePodStatus from the ContainerEventResponse's pod_sandbox_status and containers_statuses, cached at the
// event's created_at), and reads the pod when the event may not show all of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerState } from '../container/types.ts';
import type { ContainerStatus__Output, PodSandboxStatus__Output } from '../cri/proto-types.ts';
import type { RuntimeContainerEvent } from '../cri/runtime-events.ts';
import { podStatusFromEvent } from '../kuberuntime/runtime-status.ts';
import { pod, setup } from './testing/evented-fixture.ts';

const CRI_STATE: Record<ContainerState, ContainerStatus__Output['state']> = {
  created: 'CONTAINER_CREATED', running: 'CONTAINER_RUNNING', exited: 'CONTAINER_EXITED', unknown: 'CONTAINER_UNKNOWN',
};

/** A pod as a CRI event carries it: its sandbox's status and every container's (the fixture's names and ids). */
function eventPod(uid: string, containers: Array<[string, ContainerState, number?]>): NonNullable<RuntimeContainerEvent['pod']> {
  const sandbox = {
    id: `sb-${uid}`, state: 'SANDBOX_READY', createdAt: 0, network: { ip: '10.0.0.7', additionalIps: [] },
    metadata: { name: `pod-${uid}`, namespace: 'default', uid, attempt: 0 }, labels: {}, annotations: {},
  } as unknown as PodSandboxStatus__Output;
  const statuses = containers.map(([id, state, exitCode = 0]) => ({
    id, state: CRI_STATE[state], createdAt: 0, startedAt: 0, finishedAt: state === 'exited' ? 5e9 : 0, exitCode,
    reason: state === 'exited' ? 'Error' : '', message: '', metadata: { name: `n-${id}`, attempt: 0 }, labels: {},
    annotations: { 'io.kubernetes.container.hash': '1' }, image: { image: 'i' }, imageRef: 'i', imageId: 'i', logPath: '',
  })) as unknown as ContainerStatus__Output[];
  return { sandbox, containers: statuses };
}

const running = () => [pod('u1', [['c1', 'running'], ['c2', 'running']])];

/** The PLEG running on events, with a GeneratePodStatus that records the pods it built. */
async function started() {
  const built: string[] = [];
  const f = setup(undefined, {
    generatePodStatus: (p) => {
      built.push(p.sandbox.metadata?.uid ?? '');
      return podStatusFromEvent(p, 'fake');
    },
  });
  f.rt.pods = running();
  f.pleg.start();
  await f.clock.step(500);
  assert.equal(f.pleg.mode, 'evented');
  f.seen();
  return { ...f, built };
}

test('event status: a started event carrying the whole pod is shown from the event, with no runtime call, cached at its time', async () => {
  const f = await started();
  const before = f.rt.calls.length;
  // The runtime fake does not list c3: only the event can show it.
  const at = f.clock.now() + 3;
  f.src.push(f.ev('started', 'c3', { sandboxId: 'sb-u1', podUid: 'u1', time: at, pod: eventPod('u1', [['c1', 'running'], ['c2', 'running'], ['c3', 'running']]) }));
  await f.clock.step(0);
  assert.deepEqual(f.seen(), ['u1/ContainerStarted/c3']);
  assert.deepEqual(f.rt.calls.slice(before), [], 'no runtime call');
  assert.deepEqual(f.built, ['u1']);
  const cached = f.cache.get('u1');
  assert.equal(cached.modified, at, "cached at the event's time, as the kubelet's cache.Set(…, created_at)");
  assert.deepEqual(cached.status.ips, ['10.0.0.7']);
  assert.equal(cached.status.containerStatuses.find((c) => c.id.id === 'c3')?.state, 'running');
  f.pleg.stop();
});

test('event status: an exit is shown from its event at once and then still read (the shown exit is newer than the event)', async () => {
  const f = await started();
  const before = f.rt.calls.length;
  f.rt.pods = [pod('u1', [['c1', 'exited'], ['c2', 'running']])];
  // Received 5 ms after the runtime sent it: the exit shown at once is stamped now, after the event's own time.
  const ev = f.ev('exited', 'c1', { sandboxId: 'sb-u1', podUid: 'u1', exit: f.exit(137), time: f.clock.now() - 5, pod: eventPod('u1', [['c1', 'exited', 137], ['c2', 'running']]) });
  f.src.push(ev);
  await f.clock.step(0);
  assert.deepEqual(f.seen(), ['u1/ContainerDied/c1', 'u1/PodSync/c1']);
  assert.deepEqual(f.rt.calls.slice(before), ['getPodStatus u1'], 'the read confirms the exit (termination message)');
  f.pleg.stop();
});

const readInstead: Array<{ name: string; event: (f: Awaited<ReturnType<typeof started>>) => RuntimeContainerEvent }> = [
  {
    name: 'it lacks a container the PLEG knows of the pod',
    event: (f) => f.ev('started', 'c3', { sandboxId: 'sb-u1', podUid: 'u1', pod: eventPod('u1', [['c1', 'running'], ['c3', 'running']]) }),
  },
  {
    name: "it is older than the pod's cached entry",
    event: (f) => f.ev('started', 'c3', { sandboxId: 'sb-u1', podUid: 'u1', time: f.cache.get('u1').modified - 1, pod: eventPod('u1', [['c1', 'running'], ['c2', 'running'], ['c3', 'running']]) }),
  },
  {
    name: 'it is a deletion',
    event: (f) => f.ev('deleted', 'c2', { sandboxId: 'sb-u1', podUid: 'u1', pod: eventPod('u1', [['c1', 'running']]) }),
  },
  { name: 'it carries no pod', event: (f) => f.ev('started', 'c3', { sandboxId: 'sb-u1', podUid: 'u1' }) },
];

for (const c of readInstead) {
  test(`event status: the pod is read when ${c.name}`, async () => {
    const f = await started();
    f.rt.pods = [pod('u1', [['c1', 'running'], ['c2', 'running'], ['c3', 'running']])];
    const before = f.rt.calls.length;
    const ev = c.event(f);
    if (ev.kind === 'deleted') f.rt.pods = [pod('u1', [['c1', 'running']])];
    f.src.push(ev);
    await f.clock.step(0);
    assert.deepEqual(f.rt.calls.slice(before), ['getPodStatus u1']);
    assert.deepEqual(f.seen(), ev.kind === 'deleted' ? ['u1/ContainerDied/c2', 'u1/ContainerRemoved/c2'] : ['u1/ContainerStarted/c3']);
    f.pleg.stop();
  });
}
