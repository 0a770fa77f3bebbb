import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, deepEqualJson, fnv32a, hashObject, md5Hex } from './hash.ts';

test('canonical JSON ignores key order and undefined members', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: 2, c: undefined, e: [1, { y: 1, x: 2 }] } }), '{"a":{"d":2,"e":[1,{"x":2,"y":1}]},"b":1}');
  assert.equal(hashObject({ a: 1, b: 2 }), hashObject({ b: 2, a: 1 }));
  assert.notEqual(hashObject({ a: 1 }), hashObject({ a: 2 }));
});

test('fnv32a known vectors', () => {
  assert.equal(fnv32a(''), '811c9dc5');
  assert.equal(fnv32a('a'), 'e40c292c');
  assert.equal(fnv32a('foobar'), 'bf9cf968');
});

test('md5Hex is 32 hex chars, order-sensitive across parts', () => {
  const h = md5Hex({ x: 1 }, 'host:n1', 'file:/a.yaml');
  assert.match(h, /^[0-9a-f]{32}$/);
  assert.equal(h, md5Hex({ x: 1 }, 'host:n1', 'file:/a.yaml'));
  assert.notEqual(h, md5Hex({ x: 1 }, 'host:n2', 'file:/a.yaml'));
  assert.equal(md5Hex('abc'), '900150983cd24fb0d6963f7d28e17f72');
});

test('dates compare equal to their ISO strings', () => {
  const d = new Date(Date.UTC(2026, 0, 1));
  assert.ok(deepEqualJson({ t: d }, { t: '2026-01-01T00:00:00.000Z' }));
});
