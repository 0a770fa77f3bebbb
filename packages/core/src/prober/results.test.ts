import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResultsCache } from './results.ts';
import type { ResultUpdate } from './types.ts';

test('results cache: set notifies only on change; remove forgets; unsubscribe stops updates', () => {
  const r = new ResultsCache('readiness');
  const seen: ResultUpdate[] = [];
  const off = r.onUpdate((u) => seen.push(u));
  const pod = { metadata: { uid: 'u1' } };
  r.set('c1', 'failure', pod, 'app');
  r.set('c1', 'failure', pod, 'app');
  r.set('c1', 'success', pod, 'app');
  assert.equal(r.get('c1'), 'success');
  r.remove('c1');
  assert.equal(r.get('c1'), undefined);
  off();
  r.set('c1', 'failure', pod, 'app');
  assert.deepEqual(
    seen.map((u) => [u.containerId, u.podUid, u.containerName, u.probeType, u.result]),
    [
      ['c1', 'u1', 'app', 'readiness', 'failure'],
      ['c1', 'u1', 'app', 'readiness', 'success'],
    ],
  );
});
