import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMapFlag, parseThresholdConfig, thresholdQuantity } from './thresholds.ts';
import { parseGoDuration } from './duration.ts';

const Mi = 2 ** 20;

test('parseThresholdConfig: table', () => {
  const cases: Array<{ name: string; in: Parameters<typeof parseThresholdConfig>[0]; want?: Array<[string, string, number | string, number]>; err?: string }> = [
    {
      name: 'defaults when evictionHard unset',
      in: {},
      want: [
        ['hard', 'memory.available', 100 * Mi, 0],
        ['hard', 'nodefs.available', '10%', 0],
        ['hard', 'nodefs.inodesFree', '5%', 0],
        ['hard', 'imagefs.available', '15%', 0],
      ],
    },
    { name: 'explicit empty map disables', in: { evictionHard: {} }, want: [] },
    { name: '0% and 100% ignored', in: { evictionHard: { 'memory.available': '0%', 'nodefs.available': '100%' } }, want: [] },
    {
      name: 'soft with grace period',
      in: { evictionHard: { 'memory.available': '1Gi' }, evictionSoft: { 'memory.available': '2Gi' }, evictionSoftGracePeriod: { 'memory.available': '1m30s' } },
      want: [
        ['hard', 'memory.available', 1024 * Mi, 0],
        ['soft', 'memory.available', 2048 * Mi, 90_000],
      ],
    },
    { name: 'unknown signal', in: { evictionHard: { 'mem.available': '1Gi' } }, err: 'unsupported eviction signal mem.available' },
    { name: 'bad quantity', in: { evictionHard: { 'memory.available': '10XYZ' } }, err: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
    { name: 'percentage above 100', in: { evictionHard: { 'nodefs.available': '110%' } }, err: 'eviction percentage threshold nodefs.available must be <= 100%: 110%' },
    { name: 'negative percentage', in: { evictionHard: { 'nodefs.available': '-5%' } }, err: 'eviction percentage threshold nodefs.available must be >= 0%: -5%' },
    { name: 'zero quantity', in: { evictionHard: { 'memory.available': '0' } }, err: 'eviction threshold memory.available must be positive: 0' },
    { name: 'soft without grace', in: { evictionSoft: { 'memory.available': '1Gi' } }, err: 'grace period must be specified for the soft eviction threshold memory.available' },
    { name: 'bad grace duration', in: { evictionSoft: { 'memory.available': '1Gi' }, evictionSoftGracePeriod: { 'memory.available': '90' } }, err: 'time: invalid duration "90"' },
    { name: 'min reclaim unknown signal', in: { evictionMinimumReclaim: { foo: '1Gi' } }, err: 'unsupported eviction signal foo' },
  ];
  for (const c of cases) {
    const r = parseThresholdConfig(c.in);
    if (c.err) {
      assert.deepEqual(r, { ok: false, reason: c.err }, c.name);
      continue;
    }
    assert.ok(r.ok, c.name);
    const got = r.value.map((t) => [t.kind, t.signal, 'quantity' in t.value ? t.value.quantity : t.value.raw, t.gracePeriodMs]);
    assert.deepEqual(got, c.want, c.name);
  }
});

test('minimum reclaim attaches to hard and soft thresholds', () => {
  const r = parseThresholdConfig({ evictionHard: { 'nodefs.available': '10%' }, evictionMinimumReclaim: { 'nodefs.available': '500Mi' } });
  assert.ok(r.ok);
  assert.deepEqual(r.value[0]?.minReclaim, { quantity: 500 * Mi, raw: '500Mi' });
  assert.equal(thresholdQuantity({ percentage: 0.1, raw: '10%' }, 1000), 100);
});

test('parseMapFlag: table', () => {
  const cases: Array<[string, '<' | '=', Record<string, string> | string]> = [
    ['memory.available<100Mi,nodefs.available<10%', '<', { 'memory.available': '100Mi', 'nodefs.available': '10%' }],
    ['', '<', {}],
    ['memory.available=1m', '=', { 'memory.available': '1m' }],
    ['memory.available100Mi', '<', 'malformed pair, expect string<string'],
    ['memory.available<1,x', '<', 'malformed pair, expect string<string'],
  ];
  for (const [text, sep, want] of cases) {
    const r = parseMapFlag(text, sep);
    assert.deepEqual(r, typeof want === 'string' ? { ok: false, reason: want } : { ok: true, value: want }, text);
  }
});

test('parseGoDuration: table', () => {
  const cases: Array<[string, number | undefined]> = [['1m30s', 90_000], ['500ms', 500], ['2h', 7_200_000], ['0', 0], ['90', undefined], ['1x', undefined], ['', undefined]];
  for (const [s, ms] of cases) {
    const r = parseGoDuration(s);
    assert.deepEqual(r.ok ? r.ms : undefined, ms, s);
  }
});
