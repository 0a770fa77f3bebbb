import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RuntimeContainerEvent } from '../cri/runtime-events.ts';
import type { ContainerState, RuntimePod } from '../container/types.ts';
import { pod, setup } from './testing/evented-fixture.ts';

type Fixture = ReturnType<typeof setup>;

/** One step of a scenario: change what the runtime reports, push events, let time pass, check. */
interface Step {
  /** What ListContainers / ContainerStatus report from now on (the fake derives the status from it). */
  runtime?: RuntimePod[];
  events?: (f: Fixture) => RuntimeContainerEvent[];
  /** Open the settle gate (the source's CRI has caught up). */
  settle?: boolean;
  stepMs?: number;
  /** PLEG events on the channel after this step. */
  want: string[];
  /** Runtime calls made during this step. */
  calls?: string[];
  /** The cached state of c1 after this step. */
  c1?: { state: ContainerState; exitCode?: number; reason?: string; fromEvent?: boolean };
}

interface Case {
  name: string;
  /** The source lags CRI: re-reads wait until a step opens the settle gate. */
  lagging?: boolean;
  steps: Step[];
}

const running = [pod('u1', [['c1', 'running'], ['c2', 'running']])];
const c1Exited = [pod('u1', [['c1', 'exited'], ['c2', 'running']])];

const cases: Case[] = [
  {
    // Shown from the event, the exit lacks the termination message (marked fromEvent: no status is published from
    // it); the read that shows it syncs the pod (PodSync) so its status gets the message.
    name: 'an exit carrying its state shows before any runtime call; a CRI that still says running changes nothing; the read that shows it syncs the pod',
    lagging: true,
    steps: [
      { events: (f) => [f.ev('exited', 'c1', { exit: f.exit(137) })], want: ['u1/ContainerDied/c1'], calls: [], c1: { state: 'exited', exitCode: 137, reason: 'Error', fromEvent: true } },
      { settle: true, want: [], calls: ['getPodStatus u1'], c1: { state: 'exited', exitCode: 137, fromEvent: true } },
      { runtime: c1Exited, events: (f) => [f.ev('oom', 'c1')], want: ['u1/PodSync/c1'], calls: ['getPodStatus u1'], c1: { state: 'exited', fromEvent: false } },
    ],
  },
  {
    name: 'the exit event repeated three times: one ContainerDied (and one PodSync once the re-read shows it)',
    steps: [
      {
        runtime: c1Exited,
        events: (f) => [f.ev('exited', 'c1', { exit: f.exit(137) }), f.ev('exited', 'c1', { exit: f.exit(137) }), f.ev('exited', 'c1')],
        want: ['u1/ContainerDied/c1', 'u1/PodSync/c1'],
      },
      { stepMs: 300_000, want: [] },
    ],
  },
  {
    name: 'a dropped exit event: the relist reconciles it, once',
    steps: [
      { runtime: c1Exited, want: [] },
      { stepMs: 300_000, want: ['u1/ContainerDied/c1'], c1: { state: 'exited' } },
      { stepMs: 300_000, want: [] },
    ],
  },
  {
    name: 'a relist listing the container running after its exit event neither restarts nor re-kills it',
    lagging: true,
    steps: [
      { events: (f) => [f.ev('exited', 'c1', { exit: f.exit(1) })], want: ['u1/ContainerDied/c1'] },
      { stepMs: 300_000, want: [], c1: { state: 'exited', exitCode: 1 } },
    ],
  },
  {
    name: 'an exit without its state waits for the re-read',
    steps: [{ runtime: c1Exited, events: (f) => [f.ev('exited', 'c1')], want: ['u1/ContainerDied/c1'], calls: ['getPodStatus u1'], c1: { state: 'exited' } }],
  },
  {
    name: 'a new container of a known sandbox re-reads that pod, no relist',
    steps: [
      {
        runtime: [pod('u1', [['c1', 'running'], ['c2', 'running'], ['c3', 'running']])],
        events: (f) => [f.ev('started', 'c3', { sandboxId: 'sb-u1' })],
        want: ['u1/ContainerStarted/c3'],
        calls: ['getPodStatus u1'],
      },
    ],
  },
  {
    name: 'an id nobody knows relists',
    steps: [
      {
        runtime: [...running, pod('u2', [['d1', 'running']])],
        events: (f) => [f.ev('started', 'sb-u2', { sandboxId: 'sb-u2' })],
        want: ['u2/ContainerStarted/d1', 'u2/ContainerStarted/sb-u2'],
        calls: ['getPods', 'getPodStatus u2'],
      },
    ],
  },
  {
    // The kubelet's evented PLEG takes the pod from the event's PodSandboxStatus metadata: a new pod is read alone.
    name: 'an id nobody knows whose event names its pod re-reads that pod, no relist',
    steps: [
      {
        runtime: [...running, pod('u2', [['d1', 'running']])],
        events: (f) => [f.ev('started', 'sb-u2', { sandboxId: 'sb-u2', podUid: 'u2' })],
        want: ['u2/ContainerStarted/d1', 'u2/ContainerStarted/sb-u2'],
        calls: ['getPodStatus u2'],
      },
    ],
  },
  {
    name: 'removal: died and removed once, the relist adds nothing',
    steps: [
      { runtime: [pod('u1', [['c2', 'running']])], events: (f) => [f.ev('deleted', 'c1'), f.ev('deleted', 'c1')], want: ['u1/ContainerDied/c1', 'u1/ContainerRemoved/c1'] },
      { stepMs: 300_000, want: [] },
    ],
  },
];

for (const c of cases) {
  test(`event path: ${c.name}`, async () => {
    const f = setup();
    const { clock, rt, src, pleg, cache, seen } = f;
    let open: () => void = () => {};
    let gate: Promise<void> = Promise.resolve();
    if (c.lagging) {
      gate = new Promise<void>((r) => (open = r));
      src.settle = () => gate;
    }
    rt.pods = structuredClone(running);
    pleg.start();
    await clock.step(500);
    assert.equal(pleg.mode, 'evented');
    seen();
    for (const [i, s] of c.steps.entries()) {
      const at = `${c.name}, step ${i}`;
      if (s.runtime) rt.pods = structuredClone(s.runtime);
      const before = rt.calls.length;
      for (const e of s.events?.(f) ?? []) src.push(e);
      if (s.settle) open();
      await clock.step(s.stepMs ?? 0);
      assert.deepEqual(seen(), s.want, at);
      if (s.calls) assert.deepEqual(rt.calls.slice(before), s.calls, `${at}: runtime calls`);
      if (s.c1) {
        const got = cache.get('u1').status.containerStatuses.find((x) => x.id.id === 'c1');
        assert.equal(got?.state, s.c1.state, `${at}: cached c1 state`);
        if (s.c1.exitCode !== undefined) assert.equal(got?.exitCode, s.c1.exitCode, `${at}: exit code`);
        if (s.c1.reason !== undefined) assert.equal(got?.reason, s.c1.reason, `${at}: reason`);
        if (s.c1.fromEvent !== undefined) assert.equal(got?.exitHeardAt !== undefined, s.c1.fromEvent, `${at}: exit from the event only`);
      }
    }
    open();
    pleg.stop();
  });
}

test('event path: an exit shown from its event wakes a worker waiting for a status newer than its last sync', async () => {
  const f = setup();
  const { clock, rt, src, pleg, cache } = f;
  src.settle = () => new Promise(() => {}); // CRI never catches up: only the event can tell
  rt.pods = structuredClone(running);
  pleg.start();
  await clock.step(500);
  const lastSync = clock.now();
  await clock.step(10);
  let got: string | undefined;
  void cache.getNewerThan('u1', lastSync).then((r) => (got = r.status.containerStatuses.find((x) => x.id.id === 'c1')?.state));
  src.push(f.ev('exited', 'c1', { exit: f.exit(137) }));
  await clock.step(0);
  assert.equal(got, 'exited');
  pleg.stop();
});

test('event path: a relist that listed before a re-read does not roll the pod back (no duplicate start)', async () => {
  const f = setup();
  const { clock, rt, src, pleg, seen } = f;
  rt.pods = structuredClone(running);
  pleg.start();
  await clock.step(500);
  seen();
  // The relist lists c3 still 'created' and is held in its inspection of u1...
  rt.pods = [pod('u1', [['c1', 'running'], ['c2', 'running'], ['c3', 'created']])];
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const real = rt.getPodStatus.bind(rt);
  let first = true;
  rt.getPodStatus = async (uid, name, ns) => {
    const snapshot = await real(uid, name, ns);
    if (first) {
      first = false;
      await held;
    }
    return snapshot;
  };
  await clock.step(300_000);
  // ...while the started event's re-read sees it running and publishes.
  rt.pods = [pod('u1', [['c1', 'running'], ['c2', 'running'], ['c3', 'running']])];
  src.push(f.ev('started', 'c3', { sandboxId: 'sb-u1' }));
  await clock.step(0);
  assert.deepEqual(seen(), ['u1/ContainerStarted/c3']);
  release();
  await clock.step(0);
  await clock.step(300_000);
  assert.deepEqual(seen(), [], 'the stale listing neither hid nor repeated the start');
  pleg.stop();
});

/** Holds the next getPodStatus (a re-read in flight) until the returned release is called. */
function holdNextRead(f: Fixture): () => void {
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const real = f.rt.getPodStatus.bind(f.rt);
  let first = true;
  f.rt.getPodStatus = async (uid, name, ns) => {
    if (first) {
      first = false;
      await held;
    }
    return real(uid, name, ns);
  };
  return release;
}

const freshness: Array<{ name: string; trigger: (f: Fixture) => RuntimeContainerEvent[]; wokenEarly: boolean }> = [
  { name: 'a started event still being read', trigger: (f) => [f.ev('started', 'c2', { sandboxId: 'sb-u1' })], wokenEarly: false },
  {
    name: 'an exit shown while an earlier event of the pod is still being read',
    trigger: (f) => [f.ev('started', 'c2', { sandboxId: 'sb-u1' }), f.ev('exited', 'c1', { exit: f.exit(137) })],
    wokenEarly: false,
  },
  { name: 'an exit with nothing else in flight', trigger: (f) => [f.ev('exited', 'c1', { exit: f.exit(137) })], wokenEarly: true },
];

for (const c of freshness) {
  test(`event path: a worker waiting for a status newer than its sync is let go early only when nothing is in flight (${c.name})`, async () => {
    const f = setup();
    const { clock, rt, src, pleg, cache } = f;
    rt.pods = structuredClone(running);
    pleg.start();
    await clock.step(500);
    const lastSync = clock.now();
    await clock.step(1);
    let woken = false;
    void cache.getNewerThan('u1', lastSync).then(() => (woken = true));
    const release = holdNextRead(f);
    for (const e of c.trigger(f)) src.push(e);
    await clock.step(0);
    assert.equal(woken, c.wokenEarly, 'right after the events');
    await clock.step(2_000);
    assert.equal(woken, c.wokenEarly, 'the 1 s cache refresh waits for the read in flight');
    release();
    await clock.step(0);
    await clock.step(1_000);
    assert.equal(woken, true, 'once the read is in, the worker goes');
    pleg.stop();
  });
}
