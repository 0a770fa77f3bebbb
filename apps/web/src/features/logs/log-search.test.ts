import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findMatches, highlight } from './log-search.ts';

test('findMatches: every case-insensitive occurrence in order, capped with `limited`', () => {
  assert.deepEqual(findMatches(['Error here', 'ok', 'error ERROR'], 'error').matches, [{ line: 0, start: 0 }, { line: 2, start: 0 }, { line: 2, start: 6 }]);
  assert.deepEqual(findMatches(['aaaa'], 'aa').matches, [{ line: 0, start: 0 }, { line: 0, start: 2 }]);
  assert.deepEqual(findMatches(['x'], ''), { matches: [], limited: false });
  assert.deepEqual(findMatches(['a a a'], 'a', 2), { matches: [{ line: 0, start: 0 }, { line: 0, start: 2 }], limited: true });
});

test('highlight: plain and marked pieces, the selected occurrence marked current', () => {
  assert.deepEqual(highlight('an Error and error', 'error', 13), [
    { text: 'an ' }, { text: 'Error', mark: 'hit' }, { text: ' and ' }, { text: 'error', mark: 'current' },
  ]);
  assert.deepEqual(highlight('nothing', 'zz'), [{ text: 'nothing' }]);
  assert.deepEqual(highlight('', ''), [{ text: '' }]);
});
