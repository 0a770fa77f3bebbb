import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogBuffer, splitTimestamp } from './log-buffer.ts';

test('splitTimestamp: the kubelet prefix (RFC3339Nano + one space) is split off; other lines are left alone', () => {
  assert.deepEqual(splitTimestamp('2026-11-26T05:40:00.123456789Z hello world'), { ts: '2026-11-26T05:40:00.123456789Z', text: 'hello world' });
  assert.deepEqual(splitTimestamp('2026-11-26T05:40:00+01:00 x'), { ts: '2026-11-26T05:40:00+01:00', text: 'x' });
  assert.deepEqual(splitTimestamp('2026-11-26 not a timestamp'), { ts: '', text: '2026-11-26 not a timestamp' });
  assert.deepEqual(splitTimestamp('2026-11-26T05:40:00Z '), { ts: '2026-11-26T05:40:00Z', text: '' });
});

test('LogBuffer: chunks split anywhere make the same lines; a partial line waits for its end or finish()', () => {
  const b = new LogBuffer();
  assert.equal(b.append('2026-01-01T00:00:00Z one\n2026-01-01T00:00:01Z tw'), 1);
  assert.equal(b.append('o\r\nthree'), 1);
  assert.deepEqual(b.all().map((l) => [l.seq, l.ts, l.text]), [[0, '2026-01-01T00:00:00Z', 'one'], [1, '2026-01-01T00:00:01Z', 'two']]);
  b.finish();
  assert.deepEqual(b.all().map((l) => l.text), ['one', 'two', 'three']);
  assert.equal(b.text(false), 'one\ntwo\nthree\n');
  assert.equal(b.text(true), '2026-01-01T00:00:00Z one\n2026-01-01T00:00:01Z two\nthree\n');
});

test('LogBuffer: only the newest maxLines are kept; dropped counts the rest and seq stays the stream position', () => {
  const b = new LogBuffer(3);
  b.append('a\nb\n');
  b.append('c\nd\ne\n');
  assert.deepEqual(b.all().map((l) => [l.seq, l.text]), [[2, 'c'], [3, 'd'], [4, 'e']]);
  assert.equal(b.dropped, 2);
  b.append(Array.from({ length: 10 }, (_, i) => `x${i}\n`).join(''));
  assert.deepEqual([b.length, b.dropped, b.all()[0]?.text], [3, 12, 'x7']);
  assert.throws(() => new LogBuffer(0), /maxLines/);
});
