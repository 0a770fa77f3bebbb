import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeletApi } from '@nodelet/core/kubelet';
import { FakeStats, sample, T0 } from '../testing/fake-stats.ts';
import { createStreamHub } from './hub.ts';
import { metricsStream } from './metrics-stream.ts';
import type { MetricsMessage } from './types.ts';

function setup() {
  const stats = new FakeStats();
  const got: MetricsMessage[] = [];
  const s = metricsStream(createStreamHub({ stats } as unknown as KubeletApi), (m) => got.push(m));
  return { stats, got, s };
}

test('metrics stream: watches only subscribed keys, swaps on resubscribe, releases on close', () => {
  const { stats, got, s } = setup();
  stats.emit('/', sample(T0, 1));
  assert.equal(got.length, 0);
  s.replace({ keys: ['/', '/kubepods/podu/c1', '/'] });
  assert.deepEqual([...stats.watches.entries()], [['/', 1], ['/kubepods/podu/c1', 1]]);
  stats.emit('/', sample(T0, 2));
  assert.deepEqual(got.map((m) => m.key), ['/']);
  s.replace({ keys: ['/kubepods/podu/c1'] });
  assert.equal(stats.watches.get('/'), 0);
  assert.equal(stats.watches.get('/kubepods/podu/c1'), 1, 'kept, not re-watched');
  s.close();
  assert.equal(stats.watches.get('/kubepods/podu/c1'), 0);
  assert.deepEqual(s.watching(), []);
});

const bad: unknown[] = [null, 'x', { keys: 'x' }, {}];
for (const raw of bad) {
  test(`metrics stream: ignores malformed subscription ${JSON.stringify(raw)}`, () => {
    const { stats, s } = setup();
    s.replace({ keys: ['/'] });
    s.replace(raw);
    assert.equal(stats.watches.get('/'), 1);
  });
}
