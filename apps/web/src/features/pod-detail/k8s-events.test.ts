import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { K8sBusEvent } from '@nodelet/agent/types';
import { collapseK8sEvents } from './k8s-events.ts';

const T = '2026-11-22T12:00:00.000Z';
function ev(seq: number, reason: string, count: number, fieldPath = 'spec.containers{app}', message = `${reason} msg`): K8sBusEvent {
  return {
    type: 'k8sEvent', seq, time: T, eventType: reason === 'BackOff' ? 'Warning' : 'Normal', reason, message, count, firstTimestamp: T, lastTimestamp: T,
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'p', uid: 'u', fieldPath },
  };
}

test('collapseK8sEvents keeps the newest update of each Event, newest first', () => {
  const cases: Array<[string, K8sBusEvent[], Array<[number, number]>]> = [
    ['empty', [], []],
    ['aggregated repeats', [ev(1, 'BackOff', 1), ev(3, 'BackOff', 2), ev(5, 'BackOff', 3)], [[5, 3]]],
    ['distinct reasons', [ev(1, 'Pulled', 1), ev(2, 'Created', 1), ev(4, 'BackOff', 1), ev(6, 'BackOff', 2)], [[6, 2], [2, 1], [1, 1]]],
    ['other container is another Event', [ev(1, 'Started', 1), ev(2, 'Started', 1, 'spec.containers{b}')], [[2, 1], [1, 1]]],
    ['different message is another Event', [ev(1, 'Failed', 1, 'x', 'a'), ev(2, 'Failed', 1, 'x', 'b')], [[2, 1], [1, 1]]],
    ['out of order input', [ev(9, 'BackOff', 4), ev(7, 'BackOff', 3)], [[9, 4]]],
  ];
  for (const [label, input, want] of cases) {
    assert.deepEqual(collapseK8sEvents(input).map((e) => [e.seq, e.count]), want, label);
  }
});
