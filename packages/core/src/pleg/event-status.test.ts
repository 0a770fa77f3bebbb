// The evented PLEG builds a pod's status from a runtime event that carries the whole pod (the kubelet's evented
// PLEG: GeneratePodStatus from the ContainerEventResponse's pod_sandbox_status and containers_statuses, cached at the
// event's created_at), and reads the pod when the event may not show all of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RuntimeContainerEvent } from '../cri/runtime-events.ts';
import { podStatusFromEvent } from '../kuberuntime/runtime-status.ts';
import { eventPod, pod, setup } from './testing/evented-fixture.ts';

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

test('event status: an exit carrying the whole pod is shown from its event, with no runtime call, cached at its time', async () => {
  const f = await started();
  const before = f.rt.calls.length;
  // Received 5 ms after the runtime sent it; the runtime fake still says running: only the event shows the exit.
  const at = f.clock.now() - 5;
  f.src.push(f.ev('exited', 'c1', { sandboxId: 'sb-u1', podUid: 'u1', exit: f.exit(137), time: at, pod: eventPod('u1', [['c1', 'exited', 137], ['c2', 'running']]) }));
  await f.clock.step(0);
  assert.deepEqual(f.seen(), ['u1/ContainerDied/c1'], 'no PodSync: nothing waits for a read');
  assert.deepEqual(f.rt.calls.slice(before), [], 'no runtime call (the old path read the pod after showing the exit as heard)');
  const cached = f.cache.get('u1');
  assert.equal(cached.modified, at, "cached at the event's time, as the kubelet's cache.Set(…, created_at)");
  const c1 = cached.status.containerStatuses.find((c) => c.id.id === 'c1');
  assert.deepEqual([c1?.state, c1?.exitCode, c1?.exitHeardAt], ['exited', 137, undefined], 'an exit as the runtime shows it, not one only heard of');
  f.pleg.stop();
});

test('event status: an exit whose event cannot stand for the pod (older than its cached entry) is shown at once as heard, then read', async () => {
  const f = await started();
  const before = f.rt.calls.length;
  f.rt.pods = [pod('u1', [['c1', 'exited'], ['c2', 'running']])];
  const ev = f.ev('exited', 'c1', { sandboxId: 'sb-u1', podUid: 'u1', exit: f.exit(137), time: f.cache.get('u1').modified - 1, pod: eventPod('u1', [['c1', 'exited', 137], ['c2', 'running']]) });
  f.src.push(ev);
  await f.clock.step(0);
  assert.deepEqual(f.seen(), ['u1/ContainerDied/c1', 'u1/PodSync/c1'], 'the read confirms the exit heard (termination message)');
  assert.deepEqual(f.rt.calls.slice(before), ['getPodStatus u1']);
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
