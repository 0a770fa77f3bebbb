/** The NUMA bitmask, with cases of the kubelet's bitmask_test.go (v1.28). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BitMask, and, iterateBitMasks, or } from './bitmask.ts';

test('NewBitMask / Add / Remove / GetBits / Count, bits outside 0-63 refused (TestNewBitMask, TestAdd, TestRemove)', () => {
  assert.equal(BitMask.of(0, 1).toString(), '11');
  assert.deepEqual(BitMask.of(63, 0).getBits(), [0, 63]);
  assert.equal(BitMask.of(0, 1).add(2).count(), 3);
  assert.deepEqual(BitMask.of(0, 1, 2).remove(1).getBits(), [0, 2]);
  assert.throws(() => BitMask.of(64), { message: 'bit number must be in range 0-63' });
  assert.throws(() => BitMask.of(-1), { message: 'bit number must be in range 0-63' });
  assert.equal(BitMask.full().count(), 64);
  assert.equal(BitMask.empty().isEmpty(), true);
});

test('And / Or, package level and on a mask (TestAnd, TestOr)', () => {
  assert.deepEqual(and(BitMask.of(0, 1), BitMask.of(1, 2)).getBits(), [1]);
  assert.deepEqual(and(BitMask.of(0, 1), BitMask.of(0, 1), BitMask.of(1)).getBits(), [1]);
  assert.deepEqual(or(BitMask.of(0), BitMask.of(1), BitMask.of(2)).getBits(), [0, 1, 2]);
  assert.deepEqual(BitMask.of(0).and().getBits(), [0]);
});

test('IsNarrowerThan: fewer bits, else the smaller mask (TestIsNarrowerThan)', () => {
  const cases: Array<[string, number[], number[], boolean]> = [
    ['Check narrowness of masks with unequal bits set 1/2', [0], [0, 1], true],
    ['Check narrowness of masks with unequal bits set 2/2', [0, 1], [0], false],
    ['Check narrowness of masks with equal bits set 1/2', [0], [1], true],
    ['Check narrowness of masks with equal bits set 2/2', [1], [0], false],
  ];
  for (const [name, a, b, want] of cases) assert.equal(BitMask.of(...a).isNarrowerThan(BitMask.of(...b)), want, name);
});

test('IsSet / AnySet / IsEqual / IsLessThan / IsGreaterThan', () => {
  const m = BitMask.of(0, 2);
  assert.equal(m.isSet(2), true);
  assert.equal(m.isSet(1), false);
  assert.equal(m.isSet(64), false);
  assert.equal(m.anySet([1, 2]), true);
  assert.equal(m.anySet([1, 3]), false);
  assert.equal(m.isEqual(BitMask.of(2, 0)), true);
  assert.equal(BitMask.of(0).isLessThan(BitMask.of(1)), true);
  assert.equal(BitMask.of(1).isGreaterThan(BitMask.of(0)), true);
});

test('String pads to a multiple of two digits, as bitmask.go String()', () => {
  assert.equal(BitMask.empty().toString(), '00');
  assert.equal(BitMask.of(0).toString(), '01');
  assert.equal(BitMask.of(1).toString(), '10');
  assert.equal(BitMask.of(2).toString(), '100'); // 4 is not > 1<<2, so Go pads to 2 only
  assert.equal(BitMask.of(1, 2).toString(), '0110');
  assert.equal(BitMask.of(0, 3).toString(), '1001');
});

test('IterateBitMasks: every subset, by size, in order (TestIterateBitMasks)', () => {
  const seen: string[] = [];
  iterateBitMasks([0, 1, 2], (m) => seen.push(m.getBits().join(',')));
  assert.deepEqual(seen, ['0', '1', '2', '0,1', '0,2', '1,2', '0,1,2']);
  for (let n = 1; n <= 8; n++) {
    let count = 0;
    iterateBitMasks([...Array(n).keys()], () => count++);
    assert.equal(count, 2 ** n - 1);
  }
});
