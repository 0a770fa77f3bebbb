import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerSample } from '../../lib/api-types.ts';
import { counterRate, cpuSeries, gaugeArc, gaugeText, gaugeTone, linePath, memorySeries, mergeSamples, networkSeries, perCoreSeries, usageFraction } from './stats-math.ts';

const cpu = (usage: number, user = 0, system = 0) => ({
  usageNanoseconds: usage, userNanoseconds: user, systemNanoseconds: system, periods: 0, throttledPeriods: 0, throttledNanoseconds: 0,
});
const iface = (name: string, rx: number, tx: number) => ({ name, rxBytes: rx, txBytes: tx, rxPackets: 0, rxErrors: 0, rxDropped: 0, txPackets: 0, txErrors: 0, txDropped: 0 });

test('mergeSamples dedupes by time, sorts, caps and keeps identity when nothing is new', () => {
  const a: ContainerSample[] = [{ time: 1 }, { time: 3 }];
  assert.deepEqual(mergeSamples(a, [{ time: 2 }, { time: 3 }]).map((s) => s.time), [1, 2, 3]);
  assert.equal(mergeSamples(a, [{ time: 3 }]), a);
  assert.equal(mergeSamples(a, []), a);
  assert.deepEqual(mergeSamples(a, [{ time: 5 }, { time: 4 }], 2).map((s) => s.time), [4, 5]);
});

test('counterRate per second, skipping resets, gaps and missing values', () => {
  const samples: ContainerSample[] = [
    { time: 0, cpu: cpu(0) },
    { time: 10_000, cpu: cpu(5e9) }, // 0.5 cores
    { time: 20_000, cpu: cpu(25e9) }, // 2 cores
    { time: 30_000, cpu: cpu(1e9) }, // restart: skipped
    { time: 30_000, cpu: cpu(2e9) }, // dt = 0: skipped
    { time: 35_000 }, // no cpu: skipped (and the next interval too)
    { time: 40_000, cpu: cpu(3e9) },
  ];
  assert.deepEqual(counterRate(samples, (s) => s.cpu?.usageNanoseconds, 1e9), [{ t: 10_000, v: 0.5 }, { t: 20_000, v: 2 }]);
  assert.deepEqual(counterRate([], () => 1), []);
});

test('cpuSeries splits user and system; memorySeries reads usage and working set', () => {
  const samples: ContainerSample[] = [{ time: 0, cpu: cpu(0, 0, 0) }, { time: 2000, cpu: cpu(2e9, 1.5e9, 0.5e9) }];
  const c = cpuSeries(samples);
  assert.deepEqual([c.total[0]?.v, c.user[0]?.v, c.system[0]?.v, c.throttled[0]?.v], [1, 0.75, 0.25, 0]);
  const mem = { usageBytes: 10, workingSetBytes: 7, rssBytes: 0, cacheBytes: 0, mappedFileBytes: 0, swapBytes: 0, maxUsageBytes: 0, failcnt: 0, oomEvents: 0, oomKills: 0, pageFaults: 0, majorPageFaults: 0, limitBytes: -1 };
  assert.deepEqual(memorySeries([{ time: 1, memory: mem }, { time: 2 }]), { usage: [{ t: 1, v: 10 }], workingSet: [{ t: 1, v: 7 }] });
});

test('networkSeries sums interfaces except lo', () => {
  const samples: ContainerSample[] = [
    { time: 0, network: [iface('lo', 0, 0), iface('eth0', 100, 10), iface('eth1', 0, 0)] },
    { time: 1000, network: [iface('lo', 9999, 9999), iface('eth0', 1100, 60), iface('eth1', 500, 0)] },
  ];
  assert.deepEqual(networkSeries(samples), { rx: [{ t: 1000, v: 1500 }], tx: [{ t: 1000, v: 50 }] });
});

test('linePath maps time and value into the box, clamping and dropping outside points', () => {
  const box = { width: 100, height: 50, start: 0, end: 10, yMax: 2 };
  assert.equal(linePath([{ t: -1, v: 1 }, { t: 0, v: 0 }, { t: 5, v: 1 }, { t: 10, v: 4 }, { t: 11, v: 1 }], box), 'M0.0 50.0 L50.0 25.0 L100.0 0.0');
  assert.equal(linePath([], box), '');
});

test('usageFraction, gaugeTone and gaugeArc', () => {
  assert.equal(usageFraction(5, 10), 0.5);
  assert.equal(usageFraction(15, 10), 1);
  assert.equal(usageFraction(5, -1), undefined, 'unlimited');
  assert.equal(usageFraction(undefined, 10), undefined);
  const tones: Array<[number | undefined, string]> = [[undefined, 'info'], [0, 'ok'], [0.69, 'ok'], [0.7, 'warn'], [0.9, 'bad'], [1, 'bad']];
  for (const [f, want] of tones) assert.equal(gaugeTone(f), want, String(f));
  assert.equal(gaugeArc(0, 50, 50, 40), '');
  assert.equal(gaugeArc(0.5, 50, 50, 40), 'M10.00 50.00 A40 40 0 0 1 50.00 10.00');
  assert.equal(gaugeArc(1, 50, 50, 40), 'M10.00 50.00 A40 40 0 0 1 90.00 50.00');
  assert.equal(gaugeArc(2, 50, 50, 40), gaugeArc(1, 50, 50, 40));
});

test('gaugeText', () => {
  const cases: Array<[number | undefined, string]> = [[undefined, '—'], [0, '0%'], [0.004, '<1%'], [0.5, '50%'], [0.996, '100%']];
  for (const [f, want] of cases) assert.equal(gaugeText(f), want, String(f));
});

test('perCoreSeries: one rate series per core; the reason when the agent has no per-core figure', () => {
  const pc = (time: number, perCpu: number[]): ContainerSample => ({ time, cpu: { ...cpu(perCpu.reduce((a, b) => a + b, 0)), perCpuNanoseconds: perCpu } });
  const got = perCoreSeries([pc(0, [0, 0]), pc(1_000, [1e9, 25e7]), pc(2_000, [15e8, 75e7])]);
  assert.deepEqual(got, { cores: [[{ t: 1_000, v: 1 }, { t: 2_000, v: 0.5 }], [{ t: 1_000, v: 0.25 }, { t: 2_000, v: 0.5 }]] });
  const why = { reason: 'PerCpuUnavailable', message: 'cgroup v2 keeps no per-CPU usage' };
  assert.deepEqual(perCoreSeries([{ time: 0, cpu: { ...cpu(1), perCpuUnavailable: why } }]), { cores: [], unavailable: why.message });
  assert.deepEqual(perCoreSeries([{ time: 0 }]), { cores: [] });
});
