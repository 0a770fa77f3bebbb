import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseNetDev } from './pod-stats.ts';

const NET_DEV = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:     120       2    0    0    0     0          0         0      120       2    0    0    0     0       0          0
  eth0: 5000 40 1 0 0 0 0 0 7000 50 3 0 0 0 0 0
`;

test('parseNetDev', () => {
  const cases: Array<[string, string, Array<[string, number, number, number, number]>]> = [
    ['two interfaces', NET_DEV, [['lo', 120, 0, 120, 0], ['eth0', 5000, 1, 7000, 3]]],
    ['header only', NET_DEV.split('\n').slice(0, 2).join('\n'), []],
  ];
  for (const [name, input, want] of cases) {
    const got = parseNetDev(input).map((i) => [i.name, i.rxBytes?.value, i.rxErrors?.value, i.txBytes?.value, i.txErrors?.value]);
    assert.deepEqual(got, want, name);
  }
});
