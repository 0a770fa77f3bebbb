import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GcBusEvent } from '../../lib/api-types.ts';
import { mergeGcRows, rowFromEvent, rowFromResult } from './gc-model.ts';

const ev = (seq: number, time: string, kind: 'images' | 'containers', removed: string[], trigger = 'periodic'): GcBusEvent => ({
  type: 'gc', seq, time, kind, trigger, removed, freedBytes: removed.length * 100, errors: [],
});

test('mergeGcRows drops duplicates of one run and sorts newest first', () => {
  const rows = [
    rowFromEvent(ev(1, '2026-11-22T12:00:00.000Z', 'images', ['a:1'])),
    rowFromEvent(ev(2, '2026-11-22T12:05:00.000Z', 'containers', ['default/web/main'], 'manual')),
    rowFromResult('containers', { time: '2026-11-22T12:05:00.300Z', removed: ['default/web/main'], freedBytes: 100, errors: [] }),
    rowFromResult('images', { time: '2026-11-22T12:06:00.000Z', removed: [], freedBytes: 0, errors: [] }),
  ];
  const merged = mergeGcRows(rows);
  assert.deepEqual(merged.map((r) => [r.kind, r.time, r.trigger]), [
    ['images', '2026-11-22T12:06:00.000Z', 'manual'],
    ['containers', '2026-11-22T12:05:00.300Z', 'manual'],
    ['images', '2026-11-22T12:00:00.000Z', 'periodic'],
  ]);
  assert.equal(mergeGcRows(rows, 1).length, 1);
  assert.equal(mergeGcRows([]).length, 0);
});

test('runs of different kinds or removals at the same time are kept', () => {
  const t = '2026-11-22T12:00:00.000Z';
  const rows = [rowFromEvent(ev(1, t, 'images', ['a'])), rowFromEvent(ev(2, t, 'containers', ['a'])), rowFromEvent(ev(3, t, 'images', ['b']))];
  assert.equal(mergeGcRows(rows).length, 3);
});
