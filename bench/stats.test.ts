import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentile, slowest, table } from './stats.ts';

test('percentile uses nearest rank', () => {
  const cases: Array<[number[], number, number]> = [
    [[5], 50, 5],
    [[1, 2, 3, 4], 50, 2],
    [[4, 3, 2, 1], 99, 4],
    [[10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 90, 90],
  ];
  for (const [values, p, want] of cases) assert.equal(percentile(values, p), want, `${p} of ${values}`);
  assert.ok(Number.isNaN(percentile([], 50)));
});

test('table pads columns', () => {
  const t = table(['a', 'bb'], [['xxx', 'y']]);
  assert.equal(t.split('\n')[0], '| a   | bb |');
  assert.equal(t.split('\n')[2], '| xxx | y  |');
});

test('slowest: the n largest with their indexes, largest first', () => {
  assert.deepEqual(slowest([5, 40, 7, 40.5, 1], 3), [[3, 40.5], [1, 40], [2, 7]]);
  assert.deepEqual(slowest([], 2), []);
});
