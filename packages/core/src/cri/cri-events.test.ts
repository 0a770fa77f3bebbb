import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { createCriEventSource, fromCriEvent } from './cri-events.ts';
import type { ContainerEventResponse__Output } from './proto-types.ts';
import type { RuntimeContainerEvent } from './runtime-events.ts';
import { FakeRuntime, HOST_IMAGE } from './testing/fake-runtime.ts';
import { CriError } from './types.ts';

const T0 = Date.UTC(2026, 0, 1);
const sandboxConfig = { metadata: { name: 'web', uid: 'u1', namespace: 'default', attempt: 0 }, logDirectory: '/var/log/pods/x' };

function criEvent(over: Partial<ContainerEventResponse__Output>): ContainerEventResponse__Output {
  return { containerId: 'c1', containerEventType: 'CONTAINER_STARTED_EVENT', createdAt: T0 * 1e6, podSandboxStatus: null, containersStatuses: [], ...over };
}

describe('fromCriEvent', () => {
  const exited = { id: 'c1', state: 'CONTAINER_EXITED', exitCode: 2, finishedAt: (T0 - 5) * 1e6 + 999_000, reason: 'Error', message: 'boom' } as ContainerEventResponse__Output['containersStatuses'][number];
  const sandbox = { id: 's1', metadata: { name: 'web', uid: 'u1', namespace: 'default', attempt: 0 } } as NonNullable<ContainerEventResponse__Output['podSandboxStatus']>;
  const cases: { name: string; in: ContainerEventResponse__Output; want: RuntimeContainerEvent | null }[] = [
    { name: 'created', in: criEvent({ containerEventType: 'CONTAINER_CREATED_EVENT' }), want: { kind: 'created', containerId: 'c1', time: T0, source: 'cri' } },
    {
      name: 'started with its sandbox',
      in: criEvent({ createdAt: T0 * 1e6 + 1_999_999, podSandboxStatus: { id: 's1' } as ContainerEventResponse__Output['podSandboxStatus'] }),
      want: { kind: 'started', containerId: 'c1', sandboxId: 's1', time: T0 + 1, source: 'cri' },
    },
    {
      name: 'the pod uid from the sandbox status metadata, and the pod as the event shows it',
      in: criEvent({ podSandboxStatus: sandbox, containersStatuses: [exited] }),
      want: { kind: 'started', containerId: 'c1', sandboxId: 's1', podUid: 'u1', time: T0, pod: { sandbox, containers: [exited] }, source: 'cri' },
    },
    {
      name: 'stopped carries the terminated state of that container',
      in: criEvent({ containerEventType: 'CONTAINER_STOPPED_EVENT', containersStatuses: [{ ...exited, id: 'other', exitCode: 9 }, exited] }),
      want: { kind: 'exited', containerId: 'c1', time: T0, exitCode: 2, exit: { exitCode: 2, finishedAt: T0 - 5, reason: 'Error', message: 'boom' }, source: 'cri' },
    },
    {
      name: 'stopped without its status has no exit code',
      in: criEvent({ containerEventType: 'CONTAINER_STOPPED_EVENT' }),
      want: { kind: 'exited', containerId: 'c1', time: T0, source: 'cri' },
    },
    { name: 'deleted', in: criEvent({ containerEventType: 'CONTAINER_DELETED_EVENT' }), want: { kind: 'deleted', containerId: 'c1', time: T0, source: 'cri' } },
    { name: 'unknown type', in: criEvent({ containerEventType: 'CONTAINER_PAUSED_EVENT' as never }), want: null },
    { name: 'no container id', in: criEvent({ containerId: '' }), want: null },
  ];
  for (const tc of cases) it(tc.name, () => assert.deepEqual(fromCriEvent(tc.in), tc.want));
});

describe('createCriEventSource', () => {
  it('streams the fake runtime lifecycle as runtime events and ends on abort', async () => {
    const clock = new FakeClock(T0);
    const rt = new FakeRuntime({ clock });
    const ac = new AbortController();
    const seen: RuntimeContainerEvent[] = [];
    const done = (async () => {
      for await (const e of createCriEventSource(rt).subscribe(ac.signal)) seen.push(e);
    })();
    const { podSandboxId } = await rt.runPodSandbox({ config: sandboxConfig });
    const { containerId } = await rt.createContainer({
      podSandboxId,
      config: { metadata: { name: 'app', attempt: 0 }, image: { image: HOST_IMAGE } },
      sandboxConfig,
    });
    await rt.startContainer({ containerId });
    await clock.step(5000);
    rt.exitContainer(containerId, { exitCode: 3 });
    await rt.removeContainer({ containerId });
    ac.abort();
    await done;
    assert.equal(rt.eventSubscribers, 0);
    assert.deepEqual(
      seen.filter((e) => e.containerId === containerId).map((e) => [e.kind, e.sandboxId, e.time, e.exitCode]),
      [
        ['created', podSandboxId, T0, undefined],
        ['started', podSandboxId, T0, undefined],
        ['exited', podSandboxId, T0 + 5000, 3],
        ['deleted', podSandboxId, T0 + 5000, undefined],
      ],
    );
  });

  it('passes a broken stream on as a CriError', async () => {
    const rt = new FakeRuntime();
    const it = createCriEventSource(rt).subscribe(new AbortController().signal)[Symbol.asyncIterator]();
    const next = it.next();
    rt.breakEventStreams();
    await assert.rejects(next, (e: unknown) => e instanceof CriError && e.code === 'UNAVAILABLE');
  });

  it('throws when the runtime ends the stream by itself', async () => {
    const cri = { endpoint: 'fake://x', async *getContainerEvents() {} } as unknown as FakeRuntime;
    const it = createCriEventSource(cri).subscribe(new AbortController().signal)[Symbol.asyncIterator]();
    await assert.rejects(it.next(), (e: unknown) => e instanceof CriError && /ended by the runtime/.test(e.message));
  });
});
