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
  return { sampler, calls, busy, times: (key: string) => calls.filter(([k]) => k === key).map(([, t]) => t) };
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
