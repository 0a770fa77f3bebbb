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

test('formatBytes and formatCores', async () => {
  const { formatBytes, formatCores } = await import('./format.ts');
  const bytes: Array<[number | undefined, string]> = [[undefined, '-'], [0, '0 B'], [512, '512 B'], [496.53, '497 B'], [1536, '1.50 KiB'], [12.5 * 2 ** 20, '12.5 MiB'], [300 * 2 ** 30, '300 GiB'], [-2048, '-2.00 KiB']];
  for (const [n, want] of bytes) assert.equal(formatBytes(n), want, String(n));
  const cores: Array<[number | undefined, string]> = [[undefined, '-'], [0.35, '350m'], [0, '0'], [0.0004, '0.40m'], [0.0125, '13m'], [1.254, '1.25 cores']];
  for (const [n, want] of cores) assert.equal(formatCores(n), want, String(n));
});
