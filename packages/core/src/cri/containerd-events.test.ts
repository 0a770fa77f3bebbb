import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import type { Envelope__Output } from '../../../../proto/containerd/gen/containerd/services/events/v1/Envelope.ts';
import { createContainerdEventSource, envelopeToEvent, ExitTracker } from './containerd-events.ts';
import type { RuntimeContainerEvent } from './runtime-events.ts';
import { anyEvent, envelope, FakeContainerdEvents, ts } from './testing/fake-containerd-events.ts';
import { CriError } from './types.ts';

const T0 = Date.UTC(2026, 0, 1);
const C = 'c'.repeat(64);
const S = 's'.repeat(64);

/** The envelope as a client receives it (proto-loader output shape). */
function received(e: ReturnType<typeof envelope>): Envelope__Output {
  const ev = e.event as { type_url: string; value: Buffer };
  return { timestamp: e.timestamp as Envelope__Output['timestamp'], namespace: e.namespace ?? '', topic: e.topic ?? '', event: ev };
}

const ev = (kind: RuntimeContainerEvent['kind'], containerId: string, time: number, exitCode?: number, reason?: string): RuntimeContainerEvent =>
  exitCode === undefined
    ? { kind, containerId, time, source: 'containerd' }
    : { kind, containerId, time, source: 'containerd', exitCode, exit: { exitCode, finishedAt: time, reason: reason ?? (exitCode === 0 ? 'Completed' : 'Error'), message: '' } };

describe('envelopeToEvent', () => {
  const cases: { name: string; envs: ReturnType<typeof envelope>[]; want: (RuntimeContainerEvent | null)[] }[] = [
    {
      name: 'a container lifecycle',
      envs: [
        envelope('ContainerCreate', { id: C, image: 'localhost/busybox:latest' }, T0),
        envelope('TaskCreate', { containerId: C, pid: 10 }, T0 + 1),
        envelope('TaskStart', { containerId: C, pid: 10 }, T0 + 2),
        envelope('TaskExit', { containerId: C, id: C, pid: 10, exitStatus: 3, exitedAt: ts(T0 + 50) }, T0 + 51),
        envelope('TaskDelete', { containerId: C, pid: 10, exitStatus: 3, exitedAt: ts(T0 + 50) }, T0 + 52),
        envelope('ContainerDelete', { id: C }, T0 + 60),
      ],
      want: [ev('created', C, T0), null, ev('started', C, T0 + 2), ev('exited', C, T0 + 50, 3), null, ev('deleted', C, T0 + 60)],
    },
    {
      name: 'an exec process exit is not the container exit',
      envs: [
        envelope('TaskExecAdded', { containerId: C, execId: 'e1' }, T0),
        envelope('TaskExit', { containerId: C, id: 'e1', pid: 11, exitStatus: 1, exitedAt: ts(T0 + 1) }, T0 + 1),
      ],
      want: [null, null],
    },
    {
      name: 'a delete without an exit reports the exit once; a restart re-arms it',
      envs: [
        envelope('TaskDelete', { containerId: S, pid: 9, exitStatus: 255, exitedAt: ts(T0 + 5) }, T0 + 6),
        envelope('TaskExit', { containerId: S, id: S, pid: 9, exitStatus: 255, exitedAt: ts(T0 + 5) }, T0 + 7),
        envelope('TaskStart', { containerId: S, pid: 12 }, T0 + 8),
        envelope('TaskExit', { containerId: S, id: S, pid: 12, exitStatus: 0 }, T0 + 9),
      ],
      want: [ev('exited', S, T0 + 5, 255), null, ev('started', S, T0 + 8), ev('exited', S, T0 + 9, 0)],
    },
    {
      name: 'oom, other namespaces and other topics',
      envs: [
        envelope('TaskOOM', { containerId: C }, T0 + 3),
        envelope('TaskStart', { containerId: C, pid: 3 }, T0 + 4, 'default'),
        envelope('TaskPaused', { containerId: C }, T0 + 5),
      ],
      want: [ev('oom', C, T0 + 3), null, null],
    },
    {
      name: 'an exit after an OOM is OOMKilled (as containerd\'s CRI reports it); a restart clears it',
      envs: [
        envelope('TaskOOM', { containerId: C }, T0 + 3),
        envelope('TaskExit', { containerId: C, id: C, pid: 3, exitStatus: 137, exitedAt: ts(T0 + 4) }, T0 + 5),
        envelope('TaskStart', { containerId: C, pid: 4 }, T0 + 6),
        envelope('TaskExit', { containerId: C, id: C, pid: 4, exitStatus: 137, exitedAt: ts(T0 + 7) }, T0 + 8),
      ],
      want: [ev('oom', C, T0 + 3), ev('exited', C, T0 + 4, 137, 'OOMKilled'), ev('started', C, T0 + 6), ev('exited', C, T0 + 7, 137)],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const exits = new ExitTracker();
      assert.deepEqual(tc.envs.map((e) => envelopeToEvent(received(e), 'k8s.io', exits)), tc.want);
    });
  }

  it('ignores payload types it does not know', () => {
    const e = { ...received(envelope('TaskOOM', { containerId: C }, T0)), event: { type_url: 'containerd.events.ImageCreate', value: Buffer.alloc(0) } };
    assert.equal(envelopeToEvent(e, 'k8s.io', new ExitTracker()), null);
  });
});

describe('createContainerdEventSource over gRPC', () => {
  const fake = new FakeContainerdEvents();
  before(() => fake.start());
  after(() => fake.stop());

  it('subscribes with namespace header and filters, yields mapped events, ends quietly on abort', async () => {
    const source = createContainerdEventSource(fake.endpoint, {
      resolveSandboxId: async (e) => (e.containerId === C ? { sandboxId: S, podUid: 'uid-web' } : undefined),
    });
    assert.equal(source.name, 'containerd');
    const ac = new AbortController();
    const seen: RuntimeContainerEvent[] = [];
    const n = fake.subscriptions.length;
    const done = (async () => {
      for await (const e of source.subscribe(ac.signal)) {
        seen.push(e);
        if (seen.length === 3) ac.abort();
      }
    })();
    const sub = await fake.waitForSubscriptions(n + 1);
    assert.equal(sub.namespace, 'k8s.io');
    assert.deepEqual(sub.filters, ['namespace==k8s.io,topic~="^/tasks/"', 'namespace==k8s.io,topic~="^/containers/"']);
    fake.publish(
      envelope('TaskStart', { containerId: C, pid: 1 }, T0),
      envelope('TaskExit', { containerId: C, id: 'exec-1', exitStatus: 1 }, T0 + 1),
      { ...envelope('TaskOOM', { containerId: C }, T0 + 2), event: { type_url: 'containerd.events.TaskOOM', value: Buffer.from([0xff, 0xff]) } },
      envelope('TaskExit', { containerId: C, id: C, exitStatus: 137, exitedAt: ts(T0 + 3) }, T0 + 4),
      envelope('ContainerDelete', { id: S }, T0 + 5),
    );
    await done;
    await sub.closed;
    assert.deepEqual(seen, [
      { ...ev('started', C, T0), sandboxId: S, podUid: 'uid-web' },
      { ...ev('exited', C, T0 + 3, 137), sandboxId: S, podUid: 'uid-web' },
      ev('deleted', S, T0 + 5),
    ]);
  });

  it('an already aborted signal yields nothing and does not subscribe', async () => {
    const n = fake.subscriptions.length;
    const ac = new AbortController();
    ac.abort();
    for await (const _ of createContainerdEventSource(fake.endpoint).subscribe(ac.signal)) assert.fail('no events');
    assert.equal(fake.subscriptions.length, n);
  });

  it('throws UNAVAILABLE when containerd ends the stream', async () => {
    const n = fake.subscriptions.length;
    const it = createContainerdEventSource(fake.endpoint).subscribe(new AbortController().signal)[Symbol.asyncIterator]();
    const next = it.next();
    await fake.waitForSubscriptions(n + 1);
    fake.endStreams();
    await assert.rejects(next, (e: unknown) => e instanceof CriError && e.code === 'UNAVAILABLE' && /ended by containerd/.test(e.message));
  });

  it('maps a Subscribe failure to a CriError with its code', async () => {
    fake.failWith = { code: grpc.status.UNIMPLEMENTED, details: 'no events here' };
    try {
      const it = createContainerdEventSource(fake.endpoint).subscribe(new AbortController().signal)[Symbol.asyncIterator]();
      await assert.rejects(it.next(), (e: unknown) => e instanceof CriError && e.code === 'UNIMPLEMENTED' && e.details === 'no events here');
    } finally {
      fake.failWith = undefined;
    }
  });

  it('fails UNAVAILABLE, naming the endpoint, when nothing listens', async () => {
    const endpoint = `${fake.endpoint}.absent`;
    const it = createContainerdEventSource(endpoint).subscribe(new AbortController().signal)[Symbol.asyncIterator]();
    await assert.rejects(it.next(), (e: unknown) => e instanceof CriError && e.code === 'UNAVAILABLE' && e.message.includes(endpoint));
  });

  it('encodes payloads the way containerd names them', () => {
    assert.equal(anyEvent('TaskExit', { containerId: C }).type_url, 'containerd.events.TaskExit');
  });
});
