/** Container stdin for attach: writes reach the pipe; stdinOnce closes it when the first attach detaches. */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { attachStdin, registerContainerStdin } from './container-stdin.ts';

test('stdinOnce: the first attach that detaches closes the pipe; later attaches find no stdin', async () => {
  const owner = {};
  const pipe = new PassThrough();
  registerContainerStdin(owner, 'c1', pipe, true);
  const a = attachStdin(owner, 'c1');
  assert.ok(a);
  a.write(Buffer.from('hello'));
  a.detach();
  assert.equal(pipe.read()?.toString(), 'hello');
  assert.equal(pipe.writableEnded, true);
  assert.equal(attachStdin(owner, 'c1'), undefined);
});

test('without stdinOnce the pipe stays open across attaches; other owners and ids see nothing', () => {
  const owner = {};
  const pipe = new PassThrough();
  registerContainerStdin(owner, 'c2', pipe, false);
  attachStdin(owner, 'c2')!.detach();
  const b = attachStdin(owner, 'c2');
  assert.ok(b);
  b.write(Buffer.from('again'));
  assert.equal(pipe.read()?.toString(), 'again');
  assert.equal(pipe.writableEnded, false);
  assert.equal(attachStdin({}, 'c2'), undefined);
  assert.equal(attachStdin(owner, 'other'), undefined);
});
