import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INITIAL_SESSION, noteSeq, planHello } from './live-session.ts';

test('planHello', () => {
  const cases: Array<[string, { lastSeq: number; hellos: number }, number, { resync: boolean; resubscribe?: object; epoch: number; lastSeq: number }]> = [
    ['first connect', { lastSeq: 0, hellos: 0 }, 40, { resync: false, epoch: 0, lastSeq: 0 }],
    ['reconnect after a gap', { lastSeq: 10, hellos: 1 }, 15, { resync: true, resubscribe: { afterSeq: 10 }, epoch: 0, lastSeq: 10 }],
    ['reconnect, nothing missed', { lastSeq: 10, hellos: 1 }, 10, { resync: true, epoch: 0, lastSeq: 10 }],
    ['agent restarted', { lastSeq: 10, hellos: 1 }, 3, { resync: true, epoch: 1, lastSeq: 0 }],
  ];
  for (const [label, s, seq, want] of cases) {
    const p = planHello({ ...INITIAL_SESSION, ...s }, seq);
    assert.deepEqual({ resync: p.resync, resubscribe: p.resubscribe, epoch: p.next.epoch, lastSeq: p.next.lastSeq },
      { resubscribe: undefined, ...want }, label);
    assert.equal(p.next.hellos, s.hellos + 1);
  }
});

test('noteSeq keeps the highest', () => {
  let s = noteSeq(INITIAL_SESSION, 5);
  s = noteSeq(s, 3);
  assert.equal(s.lastSeq, 5);
  assert.equal(noteSeq(s, 5), s);
});
