import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatAge, formatClock, formatTimestamp, shortContainerId, toMillis } from './format.ts';

const now = Date.parse('2026-11-22T12:00:00.000Z');

test('formatAge', () => {
  const cases: Array<[Parameters<typeof formatAge>[0], string]> = [
    [undefined, '-'],
    ['garbage', '-'],
    ['2026-11-22T12:00:05.000Z', '0s'],
    ['2026-11-22T11:59:15.000Z', '45s'],
    ['2026-11-22T11:58:01.000Z', '119s'],
    ['2026-11-22T11:58:00.000Z', '2m'],
    [new Date('2026-11-22T11:00:01.000Z'), '59m'],
    ['2026-11-22T07:00:00.000Z', '5h'],
    ['2026-11-20T12:00:01.000Z', '47h'],
    ['2026-11-19T12:00:00.000Z', '3d'],
  ];
  for (const [from, want] of cases) assert.equal(formatAge(from, now), want, String(from));
});

test('formatClock and formatTimestamp use UTC', () => {
  assert.equal(formatClock('2026-11-22T14:03:07.120Z'), '14:03:07.120');
  assert.equal(formatClock(undefined), '-');
  assert.equal(formatTimestamp('2026-11-22T14:03:07.120Z'), '2026-11-22 14:03:07Z');
});

test('toMillis accepts Date, string and number', () => {
  assert.equal(toMillis(new Date(5)), 5);
  assert.equal(toMillis(7), 7);
  assert.equal(toMillis('1970-01-01T00:00:00.010Z'), 10);
  assert.equal(toMillis(''), undefined);
});

test('shortContainerId', () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, '-'],
    ['containerd://0123456789abcdef0123', 'containerd://0123456789ab'],
    ['0123456789abcdef', '0123456789ab'],
  ];
  for (const [id, want] of cases) assert.equal(shortContainerId(id), want);
});
