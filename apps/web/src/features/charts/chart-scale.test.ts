import { test } from 'node:test';
import assert from 'node:assert/strict';
import { downsample, formatValue, nearest, niceStep, timeTicks, valueAxis } from './chart-scale.ts';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const labels = (a: { ticks: Array<{ label: string }> }) => a.ticks.map((t) => t.label);

test('niceStep: the smallest 1/2/5 × 10^n at or above the rough step', () => {
  const cases: Array<[number, number]> = [[0.3, 0.5], [0.75, 1], [1, 1], [1.01, 2], [2.5, 5], [7, 10], [75, 100], [130, 200], [0.0021, 0.005]];
  for (const [rough, want] of cases) assert.equal(niceStep(rough), want, `niceStep(${rough})`);
});

test('valueAxis: round ticks in the unit that fits, none repeated or empty', () => {
  assert.deepEqual(labels(valueAxis(300 * MiB, 'bytes')), ['0', '100 MiB', '200 MiB', '300 MiB']);
  assert.deepEqual(labels(valueAxis(1.3 * GiB, 'bytes')), ['0', '0.5 GiB', '1.0 GiB', '1.5 GiB']);
  assert.deepEqual(labels(valueAxis(0.003, 'cores')), ['0', '1m', '2m', '3m']);
  assert.deepEqual(labels(valueAxis(0.18, 'cores')), ['0', '50m', '100m', '150m', '200m']);
  assert.deepEqual(labels(valueAxis(1.7, 'cores')), ['0', '0.5 cores', '1.0 cores', '1.5 cores', '2.0 cores']);
  assert.deepEqual(labels(valueAxis(3000, 'bytesPerSecond')), ['0', '1 KiB/s', '2 KiB/s', '3 KiB/s']);
  assert.deepEqual(labels(valueAxis(700, 'bytesPerSecond')), ['0', '200 B/s', '400 B/s', '600 B/s', '800 B/s']);
  assert.equal(valueAxis(300 * MiB, 'bytes').max, 300 * MiB);
  for (const [max, unit] of [[0, 'cores'], [NaN, 'bytes'], [0, 'bytesPerSecond']] as const) {
    const a = valueAxis(max, unit);
    assert.ok(a.max > 0 && a.ticks.length >= 2, `axis for no data (${unit})`);
  }
  for (const max of [0.0004, 0.9, 5, 17, 999, 1023, 1025, 12.3 * MiB, 5 * GiB]) {
    for (const unit of ['cores', 'bytes', 'bytesPerSecond'] as const) {
      const a = valueAxis(max, unit);
      const l = labels(a);
      assert.equal(new Set(l).size, l.length, `repeated tick labels for ${max} ${unit}: ${l.join(', ')}`);
      assert.ok(l.every((x) => x !== ''), 'empty tick');
      assert.ok(a.max >= max && a.ticks.length <= 6, `${max} ${unit}: ${l.join(', ')}`);
    }
  }
});

test('timeTicks: round seconds / minutes inside the window, at most the target count', () => {
  const end = Date.UTC(2026, 10, 26, 5, 30, 17, 400);
  const oneMin = timeTicks(end - 60_000, end);
  assert.deepEqual(oneMin.map((t) => t.label), ['05:29:30', '05:29:45', '05:30:00', '05:30:15']);
  const tenMin = timeTicks(end - 600_000, end);
  assert.deepEqual(tenMin.map((t) => t.label), ['05:22', '05:24', '05:26', '05:28', '05:30']);
  const hour = timeTicks(end - 3_600_000, end);
  assert.deepEqual(hour.map((t) => t.label), ['04:45', '05:00', '05:15', '05:30']);
  for (const ticks of [oneMin, tenMin, hour]) for (const t of ticks) assert.equal(t.t % 1000, 0);
});

test('formatValue writes three significant digits in the fitting unit', () => {
  assert.equal(formatValue(0.25, 'cores'), '250m');
  assert.equal(formatValue(1.234, 'cores'), '1.23 cores');
  assert.equal(formatValue(1536, 'bytesPerSecond'), '1.50 KiB/s');
  assert.equal(formatValue(123 * MiB, 'bytes'), '123 MiB');
  assert.equal(formatValue(undefined, 'bytes'), '—');
  assert.equal(formatValue(0, 'bytesPerSecond'), '0 B/s');
});

test('downsample keeps at most the bucket count, averaging each bucket; nearest finds a point within a gap', () => {
  const pts = Array.from({ length: 3600 }, (_, i) => ({ t: i * 1000, v: i % 2 }));
  const d = downsample(pts, 0, 3_600_000, 360);
  assert.ok(d.length <= 360);
  assert.ok(d.every((p) => p.v === 0.5));
  assert.deepEqual(downsample(pts.slice(0, 3), 0, 10_000, 10), pts.slice(0, 3));
  assert.deepEqual(nearest(pts, 1400, 1000), { t: 1000, v: 1 });
  assert.equal(nearest([{ t: 0, v: 1 }], 5000, 1000), undefined);
});
