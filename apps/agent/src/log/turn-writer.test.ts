import assert from 'node:assert/strict';
import { test } from 'node:test';
import { turnWriter } from './turn-writer.ts';

function setup(maxBuffered?: number) {
  const chunks: string[] = [];
  const pending: Array<() => void> = [];
  const w = turnWriter((c) => chunks.push(c), (run) => pending.push(run), maxBuffered);
  const turn = () => {
    for (const run of pending.splice(0)) run();
  };
  return { w, chunks, pending, turn };
}

test('turn writer: a turn’s lines leave together, in order, after the turn; nothing is written twice', () => {
  const { w, chunks, pending, turn } = setup();
  w.write('a\n');
  w.write('b\n');
  assert.deepEqual(chunks, [], 'written inside the logging call');
  assert.equal(pending.length, 1);
  turn();
  assert.deepEqual(chunks, ['a\nb\n']);
  w.write('c\n');
  turn();
  turn();
  assert.deepEqual(chunks, ['a\nb\n', 'c\n']);
});

test('turn writer: flush() writes what is buffered at once (exit); a bounded buffer is written when full', () => {
  const { w, chunks, turn } = setup(4);
  w.write('ab\n');
  w.flush();
  assert.deepEqual(chunks, ['ab\n']);
  w.write('cd\n');
  w.write('ef\n');
  assert.deepEqual(chunks, ['ab\n', 'cd\nef\n'], 'over maxBuffered: written without waiting for the turn');
  turn();
  assert.equal(chunks.length, 2);
});
