import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayText, lineAtRow, rowOffsets, rowsOf, visibleWindow } from './log-window.ts';

test('rowsOf / rowOffsets: one row per line without wrap; ceil(length / cols) with wrap (an empty line is one row)', () => {
  assert.deepEqual([rowsOf(250, 100, false), rowsOf(250, 100, true), rowsOf(200, 100, true), rowsOf(0, 100, true)], [1, 3, 2, 1]);
  assert.deepEqual([...rowOffsets([250, 0, 100], 100, true)], [0, 3, 4, 5]);
  assert.deepEqual([...rowOffsets([250, 0, 100], 100, false)], [0, 1, 2, 3]);
  assert.equal(displayText('a\tb'), 'a    b');
});

test('lineAtRow: the line that holds a row', () => {
  const o = rowOffsets([250, 0, 100], 100, true);
  assert.deepEqual([0, 1, 2, 3, 4, 99].map((r) => lineAtRow(o, r)), [0, 0, 0, 1, 2, 2]);
});

test('visibleWindow: 200 000 lines put only the viewport plus the overscan in the DOM', () => {
  const o = rowOffsets(new Array(200_000).fill(80), 120, false);
  const w = visibleWindow(o, 18, 18 * 100_000, 540, 20);
  assert.deepEqual(w, { start: 99_980, end: 100_051, top: 99_980 * 18, height: 200_000 * 18 });
  assert.ok(w.end - w.start <= 540 / 18 + 1 + 40);
  assert.deepEqual(visibleWindow(rowOffsets([], 80, true), 18, 0, 540), { start: 0, end: 0, top: 0, height: 0 });
  // the end of the content: the last line is in the window
  assert.equal(visibleWindow(o, 18, 18 * 200_000 - 540, 540, 0).end, 200_000);
});
