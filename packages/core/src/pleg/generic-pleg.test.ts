import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { StatusCache } from '../container/cache.ts';
import { FakeContainerRuntime } from '../container/testing/fake-container-runtime.ts';
import type { ContainerState, RuntimePod } from '../container/types.ts';
import type { EventBus, NodeletEvent, NodeletEventInput } from '../events/types.ts';
import { GenericPleg, computePodEvents, generateEvents } from './generic-pleg.ts';
import { formatGoDuration } from '../container/go-duration.ts';

function pod(uid: string, containers: Array<[string, ContainerState]>, sandbox: 'ready' | 'notready' = 'ready'): RuntimePod {
  return {
    uid,
    name: `pod-${uid}`,
    namespace: 'default',
    sandboxes: [{ id: { type: 'fake', id: `sb-${uid}` }, state: sandbox, createdAt: 0, attempt: 0 }],
    containers: containers.map(([id, state]) => ({
      id: { type: 'fake', id },
      name: `name-${id}`,
      image: 'img',
      imageRef: 'img',
      hash: '1',
      state,
      createdAt: 0,
    })),
  };
}

function recordingBus(): EventBus & { events: NodeletEvent[] } {
  const events: NodeletEvent[] = [];
  return {
    events,
    publish(e: NodeletEventInput) {
      const full = { ...e, seq: events.length + 1, time: e.time ?? '' } as NodeletEvent;
      events.push(full);
      return full;
    },
    subscribe: () => () => {},
    recent: () => events,
  };
}

test('generateEvents transitions', () => {
  const cases = [
    { old: 'non-existent', now: 'running', want: ['ContainerStarted'] },
    { old: 'running', now: 'exited', want: ['ContainerDied'] },
    { old: 'running', now: 'non-existent', want: ['ContainerDied', 'ContainerRemoved'] },
    { old: 'exited', now: 'non-existent', want: ['ContainerRemoved'] },
    { old: 'non-existent', now: 'unknown', want: ['ContainerChanged'] },
    { old: 'running', now: 'running', want: [] },
  ] as const;
  for (const c of cases) assert.deepEqual(generateEvents(c.old, c.now), c.want, `${c.old}->${c.now}`);
});

test('computePodEvents covers containers and sandboxes', () => {
  const ev = computePodEvents('u', undefined, pod('u', [['c1', 'running'], ['c2', 'created']]));
  assert.deepEqual(
    ev.map((e) => `${e.type}:${e.data}`),
    ['ContainerStarted:c1', 'ContainerChanged:c2', 'ContainerStarted:sb-u'],
  );
});

test('relist emits events, updates the cache and publishes on the bus', async () => {
  const clock = new FakeClock();
  const rt = new FakeContainerRuntime();
  const cache = new StatusCache();
  const bus = recordingBus();
  const pleg = new GenericPleg({ runtime: rt, cache, clock, logger: nullLogger, bus }, { relistPeriodMs: 1000 });
  rt.pods = [pod('u1', [['c1', 'running']])];
  pleg.start();
  await clock.step(0);
  const ch = pleg.watch();
  assert.deepEqual(ch.drain().map((e) => `${e.uid}/${e.type}/${e.data}`), ['u1/ContainerStarted/c1', 'u1/ContainerStarted/sb-u1']);
  assert.ok(cache.get('u1').modified === clock.now());
  rt.pods = [pod('u1', [['c1', 'exited']])];
  await clock.step(1000);
  assert.deepEqual(ch.drain().map((e) => e.type), ['ContainerDied']);
  rt.pods = [];
  await clock.step(1000);
  assert.deepEqual(ch.drain().map((e) => e.type), ['ContainerRemoved', 'ContainerDied', 'ContainerRemoved']);
  const pl = bus.events.filter((e) => e.type === 'pleg');
  assert.equal(pl.length, 6);
  assert.deepEqual(pl[0]?.type === 'pleg' && [pl[0].pod.name, pl[0].containerName], ['pod-u1', 'name-c1']);
  // nothing changes → no events and no new getPodStatus
  const before = rt.calls.length;
  await clock.step(1000);
  assert.equal(ch.length, 0);
  assert.deepEqual(rt.calls.slice(before), ['getPods']);
  pleg.stop();
});

test('health: unhealthy before first relist and after the threshold, with the kubelet message', async () => {
  const clock = new FakeClock();
  const rt = new FakeContainerRuntime();
  const pleg = new GenericPleg({ runtime: rt, cache: new StatusCache(), clock, logger: nullLogger }, { relistPeriodMs: 1000, relistThresholdMs: 180_000 });
  assert.equal(pleg.healthy().ok, false);
  pleg.start();
  await clock.step(0);
  assert.equal(pleg.healthy().ok, true);
  rt.failGetPods = new Error('runtime down');
  await clock.step(180_000);
  assert.equal(pleg.healthy().ok, true);
  await clock.step(5_000);
  assert.deepEqual(pleg.healthy(), { ok: false, message: 'pleg was last seen active 3m5s ago; threshold is 3m0s' });
  rt.failGetPods = undefined;
  await clock.step(1000);
  assert.equal(pleg.healthy().ok, true);
  pleg.stop();
  assert.equal(clock.pending(), 0);
});

test('events are dropped and counted when the channel is full', async () => {
  const clock = new FakeClock();
  const rt = new FakeContainerRuntime();
  const pleg = new GenericPleg({ runtime: rt, cache: new StatusCache(), clock, logger: nullLogger }, { channelCapacity: 2 });
  rt.pods = [pod('u1', [['c1', 'running'], ['c2', 'running']])];
  await pleg.relist();
  assert.equal(pleg.watch().length, 2);
  assert.equal(pleg.discarded, 1);
});

test('a pod whose inspection fails is re-inspected on the next relist', async () => {
  const clock = new FakeClock();
  const rt = new FakeContainerRuntime();
  const cache = new StatusCache();
  const pleg = new GenericPleg({ runtime: rt, cache, clock, logger: nullLogger });
  rt.pods = [pod('u1', [['c1', 'running']])];
  rt.failStatus.set('u1', new Error('boom'));
  await pleg.relist();
  assert.equal(pleg.watch().length, 0);
  assert.ok(cache.get('u1').error);
  rt.failStatus.clear();
  await clock.step(1000);
  await pleg.relist();
  assert.equal(pleg.watch().length, 2);
  assert.equal(cache.get('u1').error, undefined);
});

test('formatGoDuration', () => {
  const cases: Array<[number, string]> = [[180_000, '3m0s'], [185_500, '3m5.5s'], [500, '500ms'], [3_723_000, '1h2m3s'], [0, '0s']];
  for (const [ms, s] of cases) assert.equal(formatGoDuration(ms), s);
});

test('changed pods are inspected side by side, up to inspectConcurrency', async () => {
  const clock = new FakeClock();
  const rt = new FakeContainerRuntime();
  const pleg = new GenericPleg({ runtime: rt, cache: new StatusCache(), clock, logger: nullLogger }, { inspectConcurrency: 2 });
  rt.pods = [pod('u1', [['c1', 'running']]), pod('u2', [['c2', 'running']]), pod('u3', [['c3', 'running']])];
  let inFlight = 0;
  let peak = 0;
  const real = rt.getPodStatus.bind(rt);
  rt.getPodStatus = async (uid, name, ns) => {
    peak = Math.max(peak, ++inFlight);
    await new Promise((r) => setImmediate(r));
    inFlight--;
    return real(uid, name, ns);
  };
  await pleg.relist();
  assert.equal(peak, 2);
  assert.equal(pleg.watch().length, 6);
});

test('updateCache: a failed read caches the error and the pod is read again at the next relist', async () => {
  const clock = new FakeClock();
  const runtime = new FakeContainerRuntime();
  const cache = new StatusCache();
  const pleg = new GenericPleg({ runtime, cache, clock, logger: nullLogger });
  runtime.pods = [pod('u1', [['c1', 'running']])];
  await pleg.relist();
  runtime.failStatus.set('u1', new Error('ContainerStatus: deadline exceeded'));
  await clock.step(1);
  await pleg.updateCache('u1', 'pod-u1', 'default');
  assert.match(String(cache.get('u1').error), /deadline exceeded/);
  assert.equal(pleg.pendingReinspection, 1);
  runtime.failStatus.clear();
  await clock.step(1);
  await pleg.relist(); // nothing changed in the listing: the pod is re-read because the last read failed
  assert.equal(cache.get('u1').error, undefined);
  assert.equal(cache.get('u1').modified, clock.now());
  assert.equal(pleg.pendingReinspection, 0);
});

test('exited: while an updateCache read of the pod is in flight, the patched status keeps its age', async () => {
  const clock = new FakeClock();
  const runtime = new FakeContainerRuntime();
  const cache = new StatusCache();
  const pleg = new GenericPleg({ runtime, cache, clock, logger: nullLogger });
  runtime.pods = [pod('u1', [['c1', 'running'], ['c2', 'created']])];
  await pleg.relist();
  const listedAt = clock.now();
  // A pod worker started c2 and asked for a fresh read; the read is slow.
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const read = runtime.getPodStatus.bind(runtime);
  runtime.getPodStatus = async (...a) => (await gate, read(...a));
  runtime.pods = [pod('u1', [['c1', 'running'], ['c2', 'running']])];
  await clock.step(5);
  const refreshing = pleg.updateCache('u1', 'pod-u1', 'default');
  await clock.step(5);
  assert.equal(pleg.exited('u1', 'c1', { exitCode: 1, finishedAt: clock.now(), reason: 'Error', message: '' }), true);
  assert.equal(cache.get('u1').modified, listedAt, 'an old read with the exit patched in is not news about the worker\'s own change');
  release();
  await refreshing;
  const s = cache.get('u1');
  assert.equal(s.modified, listedAt + 5);
  assert.deepEqual(s.status.containerStatuses.map((c) => [c.id.id, c.state]), [['c1', 'exited'], ['c2', 'running']]);
});

test('a read older than the pod\'s cached entry never removes it: a relist whose listing predates a commit of the event path, an inspection begun before the pod was recreated', async () => {
  const clock = new FakeClock();
  const runtime = new FakeContainerRuntime();
  const cache = new StatusCache();
  const pleg = new GenericPleg({ runtime, cache, clock, logger: nullLogger });
  const ch = pleg.watch();
  let release!: () => void;
  let gate = new Promise<void>((r) => (release = r));
  const list = runtime.getPods.bind(runtime);
  runtime.getPods = async (all) => {
    const pods = await list(all);
    await gate;
    return pods;
  };
  // The listing is taken before the pod's sandbox exists; the event path reads and publishes the pod meanwhile.
  const relisting = pleg.relist();
  await clock.step(1);
  runtime.pods = [pod('u1', [['c1', 'running']])];
  await pleg.inspect('u1');
  const inspectedAt = clock.now();
  assert.deepEqual(ch.drain().map((e) => `${e.type}/${e.data}`), ['ContainerStarted/c1', 'ContainerStarted/sb-u1']);
  release();
  await relisting;
  assert.equal(cache.get('u1').modified, inspectedAt, 'the entry stays');
  assert.deepEqual(ch.drain(), [], 'no ContainerDied from the older listing');
  // An inspection that found the pod gone (its old sandbox removed) lands after a read of the recreated pod.
  gate = Promise.resolve();
  const read = runtime.getPodStatus.bind(runtime);
  let land!: () => void;
  const slow = new Promise<void>((r) => (land = r));
  runtime.pods = [];
  runtime.getPodStatus = async (...a) => {
    const s = await read(...a);
    await slow;
    return s;
  };
  await clock.step(1);
  const inspecting = pleg.inspect('u1');
  await clock.step(1);
  cache.set('u1', cache.get('u1').status, undefined, clock.now());
  land();
  await inspecting;
  assert.equal(cache.get('u1').modified, clock.now(), 'the newer read stays in the cache');
});

test('updateCache(after): an event\'s re-read of the pod begun after `after` is joined (one runtime read), an older one is not', async () => {
  const clock = new FakeClock();
  const runtime = new FakeContainerRuntime();
  const cache = new StatusCache();
  const pleg = new GenericPleg({ runtime, cache, clock, logger: nullLogger });
  runtime.pods = [pod('u1', [['c1', 'running']])];
  await pleg.relist();
  let reads = 0;
  let release!: () => void;
  let gate = new Promise<void>((r) => (release = r));
  const read = runtime.getPodStatus.bind(runtime);
  runtime.getPodStatus = async (...a) => (reads++, await gate, read(...a));
  // The worker's sync ended at syncedAt; the start's event re-reads the pod 2 ms later; the worker's read joins it.
  const syncedAt = clock.now();
  await clock.step(2);
  const inspecting = pleg.inspect('u1');
  await clock.step(1);
  const refreshing = pleg.updateCache('u1', 'pod-u1', 'default', syncedAt);
  release();
  await Promise.all([inspecting, refreshing]);
  assert.equal(reads, 1);
  assert.equal(cache.get('u1').modified, syncedAt + 2);
  // An inspection begun before the sync ended cannot show what the sync did: the worker reads the pod itself.
  gate = new Promise<void>((r) => (release = r));
  const early = pleg.inspect('u1');
  await clock.step(1);
  const late = pleg.updateCache('u1', 'pod-u1', 'default', clock.now() - 1);
  release();
  await Promise.all([early, late]);
  assert.equal(reads, 3);
  assert.equal(cache.get('u1').modified, clock.now());
});
