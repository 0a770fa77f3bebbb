import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeletApi } from '@nodelet/core/kubelet';
import { FakeKubelet } from '../testing/fake-kubelet.ts';
import { FakeStats, sample, T0 } from '../testing/fake-stats.ts';
import { createStreamHub } from '../streams/hub.ts';
import { appRouter } from './router.ts';

function caller(withStats = true) {
  const kubelet = new FakeKubelet();
  const stats = new FakeStats();
  if (withStats) Object.assign(kubelet, { stats });
  return { stats, call: appRouter.createCaller({ kubelet: kubelet as KubeletApi, streams: createStreamHub(kubelet), user: { name: 't', groups: [] } }) };
}

test('stats queries: machine, containers, tree, history, processes; null/empty without stats', async () => {
  const { call } = caller();
  assert.equal((await call.stats.machine())?.numCores, 2);
  assert.equal((await call.stats.containers()).length, 4);
  assert.equal((await call.stats.tree())?.children[0]?.key, '/kubepods');
  assert.equal((await call.stats.history({ key: '/kubepods/podu/c1' })).length, 2);
  assert.equal((await call.stats.processes({ key: '/kubepods/podu/c1' }))[0]?.pid, 7);
  const bare = caller(false).call;
  assert.equal(await bare.stats.machine(), null);
  assert.deepEqual(await bare.stats.containers(), []);
  assert.equal(await bare.stats.summary(), null);
});

test('stats.onSample: yields samples of the watched keys and releases the watch when the client goes', async () => {
  const { stats, call } = caller();
  const it = (await call.stats.onSample({ keys: ['/'] }))[Symbol.asyncIterator]();
  const next = it.next();
  await new Promise((r) => setImmediate(r));
  assert.equal(stats.watches.get('/'), 1);
  stats.emit('/kubepods/podu/c1', sample(T0, 1));
  stats.emit('/', sample(T0, 42));
  const first = await next;
  assert.equal(first.value?.key, '/');
  assert.equal(first.value?.sample.cpu?.usageNanoseconds, 42);
  await it.return?.(undefined);
  assert.equal(stats.watches.get('/'), 0);
});
