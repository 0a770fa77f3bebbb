import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedSerializer } from './keyed-serializer.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('tasks of one key run one at a time, in order; other keys are not blocked', async () => {
  const s = new KeyedSerializer();
  const log: string[] = [];
  const gate = deferred();
  const a1 = s.run('a', async () => {
    log.push('a1 start');
    await gate.promise;
    log.push('a1 end');
    return 1;
  });
  const a2 = s.run('a', () => {
    log.push('a2');
    return 2;
  });
  const b1 = s.run('b', () => {
    log.push('b1');
    return 3;
  });
  assert.equal(await b1, 3);
  assert.equal(s.pending('a'), 2);
  assert.deepEqual(log, ['a1 start', 'b1']);
  gate.resolve();
  assert.deepEqual(await Promise.all([a1, a2]), [1, 2]);
  assert.deepEqual(log, ['a1 start', 'b1', 'a1 end', 'a2']);
  await s.idle();
  assert.equal(s.pending('a'), 0);
  assert.deepEqual(s.keys(), []);
});

test('a failing task rejects its caller but does not stop the next', async () => {
  const s = new KeyedSerializer();
  const p1 = s.run('k', () => {
    throw new Error('boom');
  });
  const p2 = s.run('k', () => 'ok');
  await assert.rejects(p1, /boom/);
  assert.equal(await p2, 'ok');
});
