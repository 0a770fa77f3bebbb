import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeInfo, PressureBusEvent, PressureState, SignalState } from '../../lib/api-types.ts';
import { conditionRows, formatSignalValue, mergeHistory, patchState, sampleFromEvent, signalBar } from './pressure-model.ts';

const node = (runtimeReady: boolean, ok: boolean): NodeInfo => ({
  name: 'n', runtimeReady, startTime: '', kubeletVersion: 'v', podCount: 0, maxPods: 110,
  health: { ok, checks: [{ name: 'pleg', ok }] },
});
const state = (conditions: PressureState['conditions'], signals: SignalState[] = []): PressureState => ({ conditions, signals, evictions: [], pressureTransitionPeriodMs: 300_000 });
const mem = (available: number, met = false, extra: Partial<SignalState['thresholds'][number]> = {}): SignalState => ({
  signal: 'memory.available',
  observed: { available, capacity: 1000, time: 0 },
  thresholds: [{ kind: 'hard', quantity: 100, raw: '100', gracePeriodMs: 0, met, ...extra }],
});

test('conditionRows', () => {
  const rows = (n: NodeInfo | undefined, s: PressureState | null | undefined) => conditionRows(n, s).map((r) => `${r.type}=${r.status}/${r.tone}`);
  assert.deepEqual(rows(node(true, true), state([])), ['Ready=True/ok', 'MemoryPressure=False/ok', 'DiskPressure=False/ok', 'PIDPressure=False/ok']);
  assert.deepEqual(rows(node(false, true), state(['DiskPressure'])), ['Ready=False/bad', 'MemoryPressure=False/ok', 'DiskPressure=True/bad', 'PIDPressure=False/ok']);
  assert.deepEqual(rows(undefined, null), ['Ready=Unknown/info', 'MemoryPressure=Unknown/info', 'DiskPressure=Unknown/info', 'PIDPressure=Unknown/info']);
  assert.match(conditionRows(node(true, false), null)[0]!.message, /health checks failing: pleg/);
});

test('signalBar fractions, marks and tone', () => {
  const cases: Array<[SignalState, { frac?: number; at: number[]; tone: string; met: boolean }]> = [
    [mem(500), { frac: 0.5, at: [0.1], tone: 'ok', met: false }],
    [mem(50, true), { frac: 0.05, at: [0.1], tone: 'bad', met: true }],
    [mem(50, true, { kind: 'soft', gracePeriodMs: 60_000, graceRemainingMs: 30_000 }), { frac: 0.05, at: [0.1], tone: 'warn', met: true }],
    [mem(50, true, { kind: 'soft', gracePeriodMs: 60_000, graceRemainingMs: 0 }), { frac: 0.05, at: [0.1], tone: 'bad', met: true }],
    [{ signal: 'pid.available', thresholds: [] }, { frac: undefined, at: [], tone: 'info', met: false }],
    [{ ...mem(2000), thresholds: [{ kind: 'hard', quantity: 5000, raw: '5000', gracePeriodMs: 0, met: false }] }, { frac: 1, at: [1], tone: 'ok', met: false }],
  ];
  for (const [s, want] of cases) {
    const b = signalBar(s);
    assert.deepEqual({ frac: b.availableFraction, at: b.marks.map((m) => m.at), tone: b.tone, met: b.met }, want, JSON.stringify(s.thresholds));
  }
});

test('formatSignalValue by unit', () => {
  assert.equal(formatSignalValue('memory.available', 1536), '1.50 KiB');
  assert.equal(formatSignalValue('nodefs.inodesFree', 1234567), '1,234,567');
  assert.equal(formatSignalValue('pid.available', 32000), '32,000');
  assert.equal(formatSignalValue('imagefs.available', undefined), '—');
});

const ev = (time: string, available: number, conditions: string[] = []): PressureBusEvent => ({
  type: 'pressure', seq: 1, time, conditions, signals: [{ signal: 'memory.available', available, capacity: 1000, met: available < 100 }, { signal: 'pid.available', met: false }],
});

test('sampleFromEvent and mergeHistory', () => {
  const s1 = sampleFromEvent(ev('2026-11-22T12:00:10Z', 500));
  assert.deepEqual(s1, { time: '2026-11-22T12:00:10Z', conditions: [], values: { 'memory.available': { available: 500, capacity: 1000 } } });
  const s0 = sampleFromEvent(ev('2026-11-22T12:00:00Z', 600));
  const h = mergeHistory([s1], [s0, s1]);
  assert.deepEqual(h.map((s) => s.time), ['2026-11-22T12:00:00Z', '2026-11-22T12:00:10Z']);
  assert.deepEqual(mergeHistory(undefined, [s0, s1], 1).map((s) => s.time), ['2026-11-22T12:00:10Z']);
});

test('patchState applies conditions, observations and met flags', () => {
  const s = state([], [mem(500), { signal: 'pid.available', thresholds: [] }]);
  const p = patchState(s, ev('2026-11-22T12:00:10Z', 50, ['MemoryPressure']));
  assert.deepEqual(p?.conditions, ['MemoryPressure']);
  assert.equal(p?.signals[0]?.observed?.available, 50);
  assert.equal(p?.signals[0]?.thresholds[0]?.met, true);
  assert.equal(p?.signals[1], s.signals[1], 'no observation → unchanged');
  assert.equal(patchState(null, ev('t', 1)), null);
});
