import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askView, urlSeen } from './asked-view.ts';
import { DEFAULT_STATE, stateToParams } from './pod-list-model.ts';

const inShop = { ...DEFAULT_STATE, q: 'app=web', ns: 'shop' };

test('a second change before the URL shows the first builds on the first (the namespace cleared, then a search typed)', () => {
  const first = askView(undefined, inShop, { ns: '' });
  const second = askView(first, inShop, { q: 'app in (db,cache)' });
  assert.deepEqual(second.state, { ...DEFAULT_STATE, q: 'app in (db,cache)', ns: '' });
  assert.equal(second.qs.at(-1), stateToParams({ ...DEFAULT_STATE, q: 'app in (db,cache)' }).toString());
});

test('the URL catching up with the first change keeps the second; with the last one, nothing is left', () => {
  const first = askView(undefined, inShop, { ns: '' });
  const second = askView(first, inShop, { q: 'x=1' });
  const afterFirst = urlSeen(second, first.qs[0] ?? '');
  assert.deepEqual(afterFirst?.qs, second.qs.slice(1));
  assert.equal(urlSeen(afterFirst, second.qs[1] ?? ''), undefined);
  assert.equal(urlSeen(second, second.qs[1] ?? ''), undefined, 'both changes in one update');
});

test('a URL nobody asked for (back, a link) forgets the changes asked: the next change builds on the URL', () => {
  const asked = askView(undefined, inShop, { ns: '' });
  assert.equal(urlSeen(asked, 'sort=restarts&dir=desc'), undefined);
  assert.equal(urlSeen(undefined, 'q=a'), undefined);
});
