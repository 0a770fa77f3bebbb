// recorder.query's bad input (#16 "Bad input": an inverted or huge time range → a clear error or a capped page with
// a cursor, never an unbounded response) and the SQL it builds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkQuery, querySql } from './query.ts';
import { MAX_PAGE, RecorderQueryError } from './types.ts';

const NOW = Date.UTC(2026, 10, 26, 6, 0, 0);

describe('checkQuery', () => {
  it('refuses an inverted range, naming both ends', () => {
    assert.throws(() => checkQuery({ from: '2026-11-26T06:00:00Z', to: '2026-11-26T05:00:00Z' }, NOW), (e: Error) => {
      assert.ok(e instanceof RecorderQueryError);
      assert.equal(e.message, 'inverted time range: from (2026-11-26T06:00:00.000Z) is after to (2026-11-26T05:00:00.000Z)');
      return true;
    });
  });

  it('refuses unreadable times, cursors, kinds and limits with the field named', () => {
    assert.throws(() => checkQuery({ from: 'yesterday' }, NOW), /^RecorderQueryError: from: "yesterday" is not a time/);
    assert.throws(() => checkQuery({ to: 'soon' }, NOW), /^RecorderQueryError: to: "soon"/);
    assert.throws(() => checkQuery({ cursor: 'abc' }, NOW), /^RecorderQueryError: cursor: "abc" is not a cursor/);
    assert.throws(() => checkQuery({ kinds: ['probe', 'nope' as 'probe'] }, NOW), /^RecorderQueryError: kinds: unknown kind\(s\) nope/);
    assert.throws(() => checkQuery({ limit: 0 }, NOW), /^RecorderQueryError: limit: 0 is not a positive integer/);
    assert.throws(() => checkQuery({ limit: 1.5 }, NOW), /^RecorderQueryError: limit: 1.5/);
  });

  it('caps a huge page and accepts a huge range (the page is bounded, a cursor gives the rest)', () => {
    const c = checkQuery({ from: 0, to: 8.64e15, limit: 1e9 }, NOW);
    assert.equal(c.limit, MAX_PAGE);
    assert.equal(c.toMs, 8.64e15);
  });

  it('defaults: everything up to now, 200 rows, oldest first; ms given as a number or a digit string', () => {
    assert.deepEqual(checkQuery({}, NOW), { fromMs: 0, toMs: NOW, limit: 200, order: 'asc' });
    assert.equal(checkQuery({ from: String(NOW - 1000) }, NOW).fromMs, NOW - 1000);
  });

  it('builds one bounded SELECT: spans overlap the range by their last time, the cursor continues after (time, id)', () => {
    const q = querySql(checkQuery({ from: 10, to: 20, podUID: 'u', kinds: ['kill', 'backoff'], cursor: '15.7', limit: 5, order: 'desc' }, NOW));
    assert.equal(
      q.sql,
      'SELECT * FROM entries WHERE time <= ? AND COALESCE(last, time) >= ? AND pod_uid = ? AND kind IN (?, ?) AND (time < ? OR (time = ? AND id < ?)) ORDER BY time DESC, id DESC LIMIT ?',
    );
    assert.deepEqual(q.params, [20, 10, 'u', 'kill', 'backoff', 15, 15, 7, 6]);
  });
});
