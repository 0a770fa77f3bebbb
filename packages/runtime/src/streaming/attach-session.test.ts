import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCriLog } from './attach-session.ts';

test('parseCriLog: F lines end with a newline, P lines do not, the incomplete tail is kept', () => {
  const text = '2026-01-01T00:00:00.000000000Z stdout F hello\n2026-01-01T00:00:00.1Z stderr P part\n2026-01-01T00:00:00.2Z stderr F ial\nbogus\n2026-01-01T00:00:00.3Z std';
  const r = parseCriLog(text);
  assert.deepEqual(r.pieces, [
    { stream: 'stdout', text: 'hello\n' },
    { stream: 'stderr', text: 'part' },
    { stream: 'stderr', text: 'ial\n' },
  ]);
  assert.equal(r.rest, '2026-01-01T00:00:00.3Z std');
});

test('parseCriLog: terminal output keeps its carriage returns (a tty container writes "\\r\\n")', () => {
  const r = parseCriLog('2026-01-01T00:00:00Z stdout F got hi\r\n2026-01-01T00:00:01Z stdout F 33 99\r\n');
  assert.deepEqual(r.pieces, [{ stream: 'stdout', text: 'got hi\r\n' }, { stream: 'stdout', text: '33 99\r\n' }]);
});
