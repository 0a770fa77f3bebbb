import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clearedCookie, cookieName, createSessionStore, readCookie, sessionCookie } from './sessions.ts';

test('sessions expire, can be deleted, and are capped (oldest dropped)', () => {
  let now = 1000;
  let n = 0;
  const store = createSessionStore({ ttlMs: 60_000, max: 2, now: () => now, randomId: () => `id${++n}` });
  const a = store.create('tok-a');
  assert.deepEqual(store.get(a.id), { id: 'id1', token: 'tok-a', expiresAt: 61_000 });
  assert.equal(store.get('nope'), undefined);
  assert.equal(store.get(undefined), undefined);
  now = 61_000;
  assert.equal(store.get(a.id), undefined, 'expired');
  const b = store.create('tok-b');
  store.create('tok-c');
  store.create('tok-d');
  assert.equal(store.get(b.id), undefined, 'the oldest went beyond max');
  assert.equal(store.size(), 2);
  store.delete('id4');
  assert.equal(store.get('id4'), undefined);
});

test('session ids are random and long', () => {
  const store = createSessionStore({ ttlMs: 1000, max: 10 });
  const a = store.create('t');
  const b = store.create('t');
  assert.notEqual(a.id, b.id);
  assert.match(a.id, /^[A-Za-z0-9_-]{43}$/);
});

test('cookies', () => {
  assert.equal(cookieName(4194), 'nodelet-console-4194');
  assert.equal(readCookie('a=1; nodelet-console-4194=xyz; b=2', 'nodelet-console-4194'), 'xyz');
  assert.equal(readCookie('xnodelet-console-4194=1', 'nodelet-console-4194'), undefined);
  assert.equal(readCookie(undefined, 'a'), undefined);
  assert.equal(sessionCookie('c', { id: 'i', token: 't', expiresAt: 61_500 }, 1_000), 'c=i; Path=/; HttpOnly; SameSite=Strict; Max-Age=60');
  assert.equal(clearedCookie('c'), 'c=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
});
