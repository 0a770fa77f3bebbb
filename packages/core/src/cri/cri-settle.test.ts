import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { settleEvent, settleWithCri } from './cri-settle.ts';
import type { RuntimeContainerEvent, RuntimeEventSource } from './runtime-events.ts';
import { EventHub } from './testing/event-hub.ts';
import { FakeRuntime, HOST_IMAGE } from './testing/fake-runtime.ts';
import { CriError } from './types.ts';

const sandboxConfig = { metadata: { name: 'web', uid: 'u1', namespace: 'default', attempt: 0 } };
const ev = (kind: RuntimeContainerEvent['kind'], containerId: string): RuntimeContainerEvent => ({ kind, containerId, time: 0, source: 'containerd' });

/** Lets the poll loop reach its sleep (the fake runtime answers asynchronously). */
async function untilSleeping(clock: FakeClock): Promise<void> {
  for (let i = 0; i < 100 && clock.pending() === 0; i++) await new Promise<void>((r) => setImmediate(r));
  assert.ok(clock.pending() > 0, 'the settle loop sleeps');
}

async function setup() {
  const clock = new FakeClock();
  const rt = new FakeRuntime({ clock });
  const { podSandboxId } = await rt.runPodSandbox({ config: sandboxConfig });
  const { containerId } = await rt.createContainer({
    podSandboxId,
    config: { metadata: { name: 'app', attempt: 0 }, image: { image: HOST_IMAGE } },
    sandboxConfig,
  });
  await rt.startContainer({ containerId });
  rt.resetCalls();
  return { clock, rt, podSandboxId, containerId };
}

describe('settleEvent', () => {
  const cases: { name: string; event: (c: string, s: string) => RuntimeContainerEvent; prep?: (rt: FakeRuntime) => void; want: string; calls: number }[] = [
    { name: 'started, CRI already running', event: (c) => ev('started', c), want: 'settled', calls: 1 },
    { name: 'an id CRI does not know (removed already)', event: () => ev('exited', 'gone'), want: 'unknown-id', calls: 1 },
    { name: 'a sandbox start, CRI already ready', event: (_c, s) => ev('started', s), want: 'settled', calls: 1 },
    { name: 'a sandbox known as such is not looked up as a container', event: (_c, s) => ({ ...ev('started', s), sandboxId: s }), want: 'settled', calls: 0 },
    { name: 'created and deleted are not held', event: (c) => ev('deleted', c), want: 'settled', calls: 0 },
    { name: 'oom is not held', event: (c) => ev('oom', c), want: 'settled', calls: 0 },
    {
      name: 'a failing ContainerStatus lets the event pass',
      event: (c) => ev('exited', c),
      prep: (rt) => rt.failNext('containerStatus', new CriError('UNAVAILABLE', 'down')),
      want: 'error',
      calls: 1,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const { clock, rt, podSandboxId, containerId } = await setup();
      tc.prep?.(rt);
      const got = await settleEvent(rt, tc.event(containerId, podSandboxId), { clock }, new AbortController().signal);
      assert.equal(got, tc.want);
      assert.equal(rt.callsOf('containerStatus').length, tc.calls);
    });
  }

  it('polls until CRI shows the exit', async () => {
    const { clock, rt, containerId } = await setup();
    const p = settleEvent(rt, ev('exited', containerId), { clock, pollMs: 5 }, new AbortController().signal);
    for (let i = 0; i < 2; i++) {
      await untilSleeping(clock);
      await clock.step(5);
    }
    await untilSleeping(clock);
    assert.equal(rt.callsOf('containerStatus').length, 3);
    rt.exitContainer(containerId, { exitCode: 3 });
    await clock.step(5);
    assert.equal(await p, 'settled');
    assert.equal(rt.callsOf('containerStatus').length, 4);
  });

  it('polls PodSandboxStatus until a sandbox exit shows as NOTREADY', async () => {
    const { clock, rt, podSandboxId } = await setup();
    const p = settleEvent(rt, ev('exited', podSandboxId), { clock, pollMs: 5 }, new AbortController().signal);
    await untilSleeping(clock);
    await clock.step(5);
    await untilSleeping(clock);
    assert.equal(rt.callsOf('podSandboxStatus').length, 2);
    await rt.stopPodSandbox({ podSandboxId });
    await clock.step(5);
    assert.equal(await p, 'settled');
    assert.equal(rt.callsOf('containerStatus').length, 1, 'looked up as a container once');
  });

  it('gives up after timeoutMs', async () => {
    const { clock, rt, containerId } = await setup();
    const p = settleEvent(rt, ev('exited', containerId), { clock, pollMs: 10, timeoutMs: 30 }, new AbortController().signal);
    for (let i = 0; i < 3; i++) {
      await untilSleeping(clock);
      await clock.step(10);
    }
    assert.equal(await p, 'timeout');
  });
});

describe('settleWithCri', () => {
  it('passes events at once; settle(ev) resolves once CRI agrees (at once for a sandbox id)', async () => {
    const { clock, rt, containerId, podSandboxId } = await setup();
    const hub = new EventHub<RuntimeContainerEvent>();
    const inner: RuntimeEventSource = { name: 'containerd', subscribe: (s) => hub.subscribe(s) };
    const source = settleWithCri(inner, rt, { clock, pollMs: 5 });
    assert.equal(source.name, 'containerd');
    assert.ok(source.settle);
    const ac = new AbortController();
    const seen: string[] = [];
    const done = (async () => {
      for await (const e of source.subscribe(ac.signal)) seen.push(`${e.kind}:${e.containerId === containerId ? 'c' : 's'}`);
    })();
    while (hub.size === 0) await new Promise<void>((r) => setImmediate(r));
    hub.publish(ev('exited', containerId));
    hub.publish(ev('exited', podSandboxId));
    const outcomes: string[] = [];
    const settling = Promise.all([containerId, 'gone'].map((id) => source.settle!(ev('exited', id), ac.signal).then((o) => outcomes.push(`${id === containerId ? 'c' : 's'}:${String(o)}`))));
    await untilSleeping(clock);
    assert.deepEqual(seen, ['exited:c', 'exited:s'], 'not held');
    assert.deepEqual(outcomes, ['s:unknown-id']);
    await clock.step(5);
    await untilSleeping(clock);
    assert.deepEqual(outcomes, ['s:unknown-id'], 'CRI still says running');
    rt.exitContainer(containerId, { exitCode: 1 });
    await clock.step(5);
    await settling;
    assert.deepEqual(outcomes, ['s:unknown-id', 'c:settled']);
    ac.abort();
    await done;
  });
});
