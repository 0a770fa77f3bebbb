import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RefCounts } from './ref-counts.ts';

test('RefCounts reports union changes only on first-in / last-out', () => {
  const r = new RefCounts();
  const steps: Array<[string, () => boolean, boolean, string[]]> = [
    ['first watcher of / and a', () => r.add(['/', 'a']), true, ['/', 'a']],
    ['second watcher of /', () => r.add(['/']), false, ['/', 'a']],
    ['duplicate keys count once', () => r.add(['b', 'b']), true, ['/', 'a', 'b']],
    ['first of two / watchers leaves', () => r.remove(['/']), false, ['/', 'a', 'b']],
    ['b leaves after one remove', () => r.remove(['b']), true, ['/', 'a']],
    ['unknown key is ignored', () => r.remove(['zzz']), false, ['/', 'a']],
    ['last watchers leave', () => r.remove(['/', 'a']), true, []],
  ];
  for (const [label, step, changed, keys] of steps) {
    assert.equal(step(), changed, label);
    assert.deepEqual(r.keys(), keys, label);
  }
});
