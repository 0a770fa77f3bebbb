import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatBytes,
  formatCpuMilli,
  parseBytes,
  parseCpuMilli,
  tryParsePercentage,
  tryParseQuantity,
  tryParseQuantityOrPercent,
} from './quantity.ts';

const valid: Array<[string | number, number]> = [
  ['0', 0],
  ['1', 1],
  ['1.5', 1.5],
  ['.5', 0.5],
  ['100m', 0.1],
  ['250m', 0.25],
  ['1n', 1e-9],
  ['5u', 5e-6],
  ['1k', 1000],
  ['1M', 1e6],
  ['1G', 1e9],
  ['2T', 2e12],
  ['1P', 1e15],
  ['1E', 1e18],
  ['1Ki', 1024],
  ['128Mi', 134217728],
  ['1.5Gi', 1610612736],
  ['1Ti', 2 ** 40],
  ['1e3', 1000],
  ['1E3', 1000],
  ['5e-3', 0.005],
  ['-1', -1],
  ['+2', 2],
  [3, 3],
];

for (const [input, want] of valid) {
  test(`quantity ${JSON.stringify(input)} = ${want}`, () => {
    const r = tryParseQuantity(input);
    assert.ok(r.ok, JSON.stringify(r));
    assert.ok(Math.abs(r.value - want) <= Math.abs(want) * 1e-12, `${r.value} != ${want}`);
  });
}

for (const bad of ['', 'abc', '1.2.3', '1Mb', '1 Gi', ' 1', 'Mi', '1x', '1ki', '10%']) {
  test(`quantity ${JSON.stringify(bad)} is refused`, () => {
    const r = tryParseQuantity(bad);
    assert.equal(r.ok, false);
  });
}

const cpu: Array<[string, number]> = [
  ['100m', 100],
  ['1.5', 1500],
  ['2', 2000],
  ['0.0001', 1],
  ['1001m', 1001],
];
for (const [input, want] of cpu) {
  test(`cpu millicores of ${input} = ${want}`, () => assert.equal(parseCpuMilli(input), want));
}

const bytes: Array<[string, number]> = [
  ['128Mi', 134217728],
  ['1G', 1e9],
  ['1.5Ki', 1536],
  ['100m', 1],
];
for (const [input, want] of bytes) {
  test(`bytes of ${input} = ${want}`, () => assert.equal(parseBytes(input), want));
}

test('percentages', () => {
  assert.deepEqual(tryParsePercentage('10%'), { ok: true, value: 0.1 });
  assert.deepEqual(tryParsePercentage('7.5%'), { ok: true, value: 0.075 });
  assert.equal(tryParsePercentage('10').ok, false);
  assert.equal(tryParsePercentage('101%').ok, false);
  assert.deepEqual(tryParseQuantityOrPercent('10%', 2000), { ok: true, value: 200 });
  assert.deepEqual(tryParseQuantityOrPercent('100Mi', 2000), { ok: true, value: 104857600 });
});

test('formatting', () => {
  assert.equal(formatBytes(134217728), '128Mi');
  assert.equal(formatBytes(1000), '1000');
  assert.equal(formatCpuMilli(1500), '1500m');
  assert.equal(formatCpuMilli(2000), '2');
});
