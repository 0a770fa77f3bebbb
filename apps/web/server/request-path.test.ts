import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTarget, withoutParam } from './request-path.ts';

test('parseTarget refuses every form that a decode or a normalisation could turn into another path', () => {
  const refused = [
    '/api/../exec/ns/p/c', '/trpc/../exec', '/api/%2e%2e/exec', '/api/%2E%2e/exec', '/agents/default/api/../exec',
    '/api/.%2e/x', '/api/%2fexec', '/api/%5cexec', '/api\\..\\exec', '/a/./b', '/a/.', '//evil.example/x', '/a//b',
    '/a%00b', '/a%0ab', '/a%zz', '/a%', '/a?x=%', '/a?x=%g1', 'http://evil.example/trpc/node.get', '*', '', '/%C0%AE%C0%AE/',
  ];
  for (const t of refused) {
    const r = parseTarget(t);
    assert.equal(r.ok, false, t);
    if (!r.ok) assert.equal(r.status, 400);
  }
});

test('parseTarget accepts the console paths and keeps the raw path and query', () => {
  const r = parseTarget('/trpc/pods.list,node.get?batch=1&input=%7B%220%22%3A%7B%7D%7D');
  assert.ok(r.ok);
  assert.deepEqual([r.path, r.rawPath, r.params.get('input')], ['/trpc/pods.list,node.get', '/trpc/pods.list,node.get', '{"0":{}}']);
  for (const t of ['/', '/socket.io/?EIO=4&transport=polling&t=abc', '/api/v2.0/stats/kubepods/pod1?count=3', '/containers/pods/default/web-1', '/pods/ns/a.b%40c']) {
    assert.ok(parseTarget(t).ok, t);
  }
  const at = parseTarget('/pods/ns/a%40b');
  assert.ok(at.ok);
  assert.deepEqual([at.path, at.rawPath], ['/pods/ns/a@b', '/pods/ns/a%40b']);
});

test('withoutParam drops the token and keeps the rest', () => {
  assert.equal(withoutParam('/', 'token=abc', 'token'), '/');
  assert.equal(withoutParam('/pods/a', 'x=1&token=abc&y=2', 'token'), '/pods/a?x=1&y=2');
  assert.equal(withoutParam('/p', 'tokens=1', 'token'), '/p?tokens=1');
});
