import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { Housekeeper, type HousekeeperConfig } from './housekeeper.ts';
import type { Sampler } from './sampler.ts';
import type { ContainerSample, TrackedContainer } from './types.ts';

/** A sampler recording (key, time) calls; usage grows only for keys in `busy`. */
function fakeSampler(clock: FakeClock) {
  const calls: [string, number][] = [];
  const usage = new Map<string, number>();
  const busy = new Set<string>();
  const sampler: Sampler = async (t: TrackedContainer) => {
    calls.push([t.key, clock.now() - start]);
    const u = (usage.get(t.key) ?? 0) + (busy.has(t.key) ? 1e9 : 0);
    usage.set(t.key, u);
    const s: ContainerSample = { time: clock.now(), cpu: { usageNanoseconds: u, userNanoseconds: 0, systemNanoseconds: 0, periods: 0, throttledPeriods: 0, throttledNanoseconds: 0 } };
    return s;
  };
  const start = clock.now();
  return { sampler, calls, busy, start, times: (key: string) => calls.filter(([k]) => k === key).map(([, t]) => t) };
}

function setup(cfg: HousekeeperConfig = {}) {
  const clock = new FakeClock();
  const f = fakeSampler(clock);
  const hk = new Housekeeper({ clock, sampler: f.sampler, logger: nullLogger }, cfg);
  return { clock, hk, ...f };
}

test('samples every registered container; dynamic backoff 10 s → 15 s while idle, back to 10 s on change', async () => {
  const { clock, hk, times, busy } = setup();
  hk.register({ key: 'idle', cgroup: '/idle' });
  hk.register({ key: 'busy', cgroup: '/busy' });
  busy.add('busy');
  hk.start();
  await clock.step(60_000);
  assert.deepEqual(times('busy'), [0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
  assert.deepEqual(times('idle'), [0, 10_000, 25_000, 40_000, 55_000]);
  assert.equal(hk.intervalOf('idle'), 15_000);
  busy.add('idle');
  await clock.step(15_000);
  assert.equal(hk.intervalOf('idle'), 10_000);
  hk.stop();
  assert.equal(clock.pending(), 0);
});

test('watch is reference-counted: fast while watched, listeners get samples, back to housekeeping after the last unwatch', async () => {
  const { clock, hk, times, busy } = setup({ allowDynamic: false });
  busy.add('c');
  hk.register({ key: 'c', cgroup: '/c' });
  hk.start();
  await clock.step(0);
  const got: number[] = [];
  const un1 = hk.watch('c', (_k, s) => got.push(s.time));
  const un2 = hk.watch('c');
  assert.equal(hk.watchers('c'), 2);
  await clock.step(3_000);
  un1();
  un1();
  assert.equal(hk.watchers('c'), 1);
  await clock.step(2_000);
  un2();
  await clock.step(20_000);
  assert.deepEqual(times('c'), [0, 0, 1_000, 2_000, 3_000, 4_000, 5_000, 15_000, 25_000]);
  assert.equal(got.length, 4);
  hk.stop();
});

test('sampleUnwatched=false: nobody watching costs nothing', async () => {
  const { clock, hk, calls } = setup({ sampleUnwatched: false });
  hk.register({ key: 'c', cgroup: '/c' });
  hk.start();
  await clock.step(0);
  const baseline = calls.length;
  await clock.step(60_000);
  assert.equal(calls.length, baseline);
  const un = hk.watch('c');
  await clock.step(2_000);
  assert.equal(calls.length, baseline + 3);
  un();
  await clock.step(60_000);
  assert.equal(calls.length, baseline + 3);
  assert.equal(clock.pending(), 0);
  hk.stop();
});

test('history is bounded to 2 minutes; unregister stops sampling; sampleNow forces', async () => {
  const { clock, hk, busy, times } = setup({ allowDynamic: false });
  busy.add('c');
  hk.register({ key: 'c', cgroup: '/c' });
  hk.start();
  await clock.step(300_000);
  const h = hk.history('c');
  assert.equal(h.length, 13);
  assert.equal((h.at(-1)?.time ?? 0) - (h[0]?.time ?? 0), 120_000);
  assert.ok(hk.previous('c'));
  const s = await hk.sampleNow('c');
  assert.equal(s?.time, clock.now());
  hk.unregister('c');
  const n = times('c').length;
  await clock.step(60_000);
  assert.equal(times('c').length, n);
  assert.equal(hk.latest('c'), undefined);
  assert.deepEqual(hk.watch('c')(), undefined);
  hk.stop();
});

test('jitter as cAdvisor\'s jitter(interval, maxFactor): each unwatched wait is the interval plus random × maxFactor of it', async () => {
  const clock = new FakeClock();
  const f = fakeSampler(clock);
  f.busy.add('c');
  const draws = [0.5, 0, 0.999];
  const hk = new Housekeeper({ clock, sampler: f.sampler, logger: nullLogger, random: () => draws.shift() ?? 0 }, { jitterFactor: 1 });
  hk.register({ key: 'c', cgroup: '/c' });
  hk.start();
  await clock.step(60_000);
  assert.deepEqual(f.times('c'), [0, 15_000, 25_000, 44_990, 54_990]);
  const un = hk.watch('c');
  await clock.step(2_000);
  un();
  assert.deepEqual(f.times('c').slice(5), [60_000, 61_000, 62_000], 'watched: the fast rate, no jitter');
  hk.stop();
});

/** A FakeClock counting the timers armed and the wakes (timer callbacks run). */
class CountingClock extends FakeClock {
  armed = 0;
  wakes: number[] = [];
  override setTimeout(fn: () => void, ms: number) {
    this.armed++;
    return super.setTimeout(() => {
      this.wakes.push(this.now());
      fn();
    }, ms);
  }
}

/** A seeded PRNG (mulberry32), so that the jittered waits are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('one timer for all containers: a wake takes every container due within its slack (≤ 1 s early), the others keep their due time', async () => {
  const clock = new CountingClock();
  const f = fakeSampler(clock);
  for (const k of ['a', 'b', 'c']) f.busy.add(k);
  const hk = new Housekeeper({ clock, sampler: f.sampler, logger: nullLogger }, { allowDynamic: false });
  hk.register({ key: 'a', cgroup: '/a' });
  hk.start();
  await clock.step(500);
  hk.register({ key: 'b', cgroup: '/b' });
  await clock.step(1_500);
  hk.register({ key: 'c', cgroup: '/c' });
  await clock.step(23_000);
  assert.deepEqual(f.times('a'), [0, 10_000, 20_000]);
  assert.deepEqual(f.times('b'), [500, 10_000, 20_000], 'due at 10 500: taken by the 10 000 wake (slack: a tenth of 10 s)');
  assert.deepEqual(f.times('c'), [2_000, 12_000, 22_000], 'due at 12 000: 2 s after the wake, its own wake');
  assert.deepEqual(clock.wakes.map((t) => t - f.start), [0, 500, 2_000, 10_000, 12_000, 20_000, 22_000]);
  assert.equal(clock.pending(), 1, 'one timer armed');
  hk.unregister('a');
  hk.unregister('b');
  hk.unregister('c');
  assert.equal(clock.pending(), 0, 'no container, no timer');
  hk.stop();
});

test('230 containers with the kubelet\'s jitter: one timer pending, at most one wake a second, each container every 10–30 s', async () => {
  const clock = new CountingClock();
  const f = fakeSampler(clock);
  const hk = new Housekeeper({ clock, sampler: f.sampler, logger: nullLogger, random: seeded(14) }, { jitterFactor: 1 });
  const keys = Array.from({ length: 230 }, (_, i) => `/kubepods/pod${i}`);
  keys.forEach((k, i) => {
    if (i % 3 === 0) f.busy.add(k);
    hk.register({ key: k, cgroup: k });
  });
  hk.start();
  let maxPending = 0;
  for (let s = 0; s < 600; s++) {
    await clock.step(1_000);
    maxPending = Math.max(maxPending, clock.pending());
  }
  assert.equal(maxPending, 1, 'one timer, not one per container');
  const wakes = clock.wakes.map((t) => t - f.start);
  const gaps = wakes.slice(2).map((t, i) => t - (wakes[i + 1] ?? 0));
  assert.ok(gaps.every((g) => g > 1_000), `wakes more than 1 s apart once started (min gap ${Math.min(...gaps)} ms)`);
  assert.ok(wakes.length <= 601, `${wakes.length} wakes in 600 s`);
  for (const k of keys) {
    const t = f.times(k);
    assert.ok(t.length >= 20, `${k}: ${t.length} samples`);
    const g = t.slice(1).map((x, i) => x - (t[i] ?? 0));
    // 10 s (busy) or 10–15 s (idle, dynamic), stretched by 0–100 % jitter, taken at most 1 s early.
    assert.ok(g.every((x) => x >= 9_000 && x <= 30_000), `${k}: gaps ${g.join(',')}`);
  }
  const idle = keys.find((_, i) => i % 3 === 1) ?? '';
  assert.equal(hk.intervalOf(idle), 15_000, 'dynamic housekeeping still doubles an unchanged container to 15 s');
  assert.equal(hk.intervalOf(keys[0] ?? ''), 10_000);
  hk.stop();
  assert.equal(clock.pending(), 0);
});

test('a watched container keeps its 1 s rate among 100 jittered ones (at most a tenth of a second early)', async () => {
  const clock = new CountingClock();
  const f = fakeSampler(clock);
  const hk = new Housekeeper({ clock, sampler: f.sampler, logger: nullLogger, random: seeded(7) }, { jitterFactor: 1 });
  for (let i = 0; i < 100; i++) hk.register({ key: `/p${i}`, cgroup: `/p${i}` });
  hk.register({ key: 'w', cgroup: '/w' });
  hk.start();
  await clock.step(5_000);
  const before = hk.version();
  const un = hk.watch('w');
  await clock.step(60_000);
  un();
  const t = f.times('w').filter((x) => x >= 5_000);
  const g = t.slice(1).map((x, i) => x - (t[i] ?? 0));
  assert.ok(t.length >= 60 && t.length <= 67, `${t.length} watched samples in 60 s`);
  assert.ok(g.every((x) => x >= 900 && x <= 1_000), `watched gaps ${g.join(',')}`);
  assert.ok(hk.version() - before >= t.length, 'every kept sample moves the version (the cadvisor page\'s generation)');
  await clock.step(60_000);
  const after = f.times('w').filter((x) => x > 65_000);
  assert.ok(after.length >= 2 && after.length <= 6, `back to housekeeping: ${after.length} samples in 60 s`);
  hk.stop();
});
