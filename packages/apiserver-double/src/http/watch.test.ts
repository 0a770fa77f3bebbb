// Integration: watches and an informer (client-node ListWatch) against the double, bookmarks on a FakeClock.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { CoreV1Api, KubeConfig, ListWatch, Watch, type V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '@nodelet/core/testing';
import { startApiServerDouble } from '../server.ts';
import { countRequests, waitFor } from '../testing/wait.ts';

async function setup(t: TestContext, historyWindow = 1000) {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const double = await startApiServerDouble({ clock, historyWindow });
  t.after(() => double.stop());
  const kc = new KubeConfig();
  kc.loadFromFile(double.kubeconfigFor('node-1'));
  return { clock, double, kc, core: kc.makeApiClient(CoreV1Api) };
}

const pod = (name: string, nodeName: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
  spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }] },
});

interface Seen {
  type: string;
  name?: string;
  rv?: string;
  code?: number;
  message?: string;
  annotations?: Record<string, string>;
}

async function watch(kc: KubeConfig, path: string, query: Record<string, string | number | boolean | undefined>) {
  const seen: Seen[] = [];
  let done: unknown = 'open';
  const ctl = await new Watch(kc).watch(
    path,
    query,
    (type, obj: any) =>
      seen.push({ type, name: obj?.metadata?.name, rv: obj?.metadata?.resourceVersion, code: obj?.code, message: obj?.message, annotations: obj?.metadata?.annotations }),
    (err) => (done = err ?? null),
  );
  return { seen, ended: () => done !== 'open', abort: () => ctl.abort() };
}

test('watch pods by spec.nodeName from a list RV, with periodic bookmarks on the injected clock', async (t) => {
  const { clock, double, core, kc } = await setup(t);
  double.store.create(pod('before', 'node-1'));
  const list = await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=node-1' });
  assert.deepEqual(list.items.map((p) => p.metadata?.name), ['before']);
  const w = await watch(kc, '/api/v1/pods', { fieldSelector: 'spec.nodeName=node-1', allowWatchBookmarks: true, resourceVersion: list.metadata?.resourceVersion });
  t.after(() => w.abort());
  double.store.create(pod('mine', 'node-1'));
  double.store.create(pod('other', 'node-2'));
  const mine = double.store.get('pods', 'default', 'mine')!;
  double.store.put({ ...mine, metadata: { ...mine.metadata, labels: { x: 'y' } } });
  await waitFor(() => w.seen.length >= 2, 'ADDED + MODIFIED');
  assert.deepEqual(w.seen.map((s) => `${s.type} ${s.name}`), ['ADDED mine', 'MODIFIED mine']);
  await clock.step(60_000);
  await waitFor(() => w.seen.length >= 3, 'BOOKMARK');
  assert.equal(w.seen[2]?.type, 'BOOKMARK');
  assert.equal(w.seen[2]?.rv, String(double.store.currentRv()));
});

test('watch without RV starts with synthetic ADDED; sendInitialEvents ends with the initial-events-end bookmark', async (t) => {
  const { double, kc } = await setup(t);
  double.store.create(pod('a', 'node-1'));
  const w = await watch(kc, '/api/v1/namespaces/default/pods', { allowWatchBookmarks: true, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' });
  t.after(() => w.abort());
  await waitFor(() => w.seen.length >= 2, 'initial events');
  assert.deepEqual(w.seen.map((s) => s.type), ['ADDED', 'BOOKMARK']);
  assert.deepEqual(w.seen[1]?.annotations, { 'k8s.io/initial-events-end': 'true' });
});

test('an object leaving the label selector is DELETED for that watcher; timeoutSeconds ends the watch', async (t) => {
  const { clock, double, kc } = await setup(t);
  const rv = String(double.store.currentRv());
  const w = await watch(kc, '/api/v1/namespaces/default/pods', { labelSelector: 'app=web', resourceVersion: rv, timeoutSeconds: 300 });
  double.store.create(pod('a', 'node-1', { app: 'web' }));
  const a = double.store.get('pods', 'default', 'a')!;
  double.store.put({ ...a, metadata: { ...a.metadata, labels: { app: 'db' } } });
  const leftRv = String(double.store.currentRv());
  await waitFor(() => w.seen.length >= 2, 'ADDED + DELETED');
  assert.deepEqual(w.seen.map((s) => `${s.type} ${s.name}`), ['ADDED a', 'DELETED a']);
  assert.equal(w.seen[1]?.rv, leftRv, 'DELETED carries the event RV');
  assert.equal(w.ended(), false);
  await clock.step(300_000);
  await waitFor(() => w.ended(), 'server-side timeout');
});

test('watch from a compacted RV → ERROR 410 Expired "too old resource version"', async (t) => {
  const { double, kc } = await setup(t);
  const old = double.store.currentRv();
  double.store.create(pod('a', 'node-1'));
  double.store.compact();
  const w = await watch(kc, '/api/v1/pods', { resourceVersion: String(old) });
  await waitFor(() => w.ended(), 'watch end');
  assert.equal(w.seen.length, 1);
  assert.equal(w.seen[0]?.type, 'ERROR');
  assert.equal(w.seen[0]?.code, 410);
  assert.equal(w.seen[0]?.message, `too old resource version: ${old} (${double.store.currentRv()})`);
});

test('informer (ListWatch): reconnect resumes from its RV; after compaction it gets 410 and relists', async (t) => {
  const { double, kc, core } = await setup(t);
  double.store.create(pod('a', 'node-1'));
  double.store.create(pod('x', 'node-2'));
  const lists = () => countRequests(double, (r) => r.verb === 'list' && r.resource === 'pods');
  const informer = new ListWatch<V1Pod>(
    '/api/v1/pods',
    new Watch(kc),
    () => core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=node-1' }),
    false,
    undefined,
    'spec.nodeName=node-1',
  );
  const added: string[] = [];
  informer.on('add', (p) => added.push(p.metadata?.name ?? ''));
  informer.on('delete', (p) => added.push(`-${p.metadata?.name}`));
  await informer.start();
  t.after(() => informer.stop());
  const watches = () => countRequests(double, (r) => r.verb === 'watch');
  await waitFor(() => watches() === 1, 'first watch');
  assert.deepEqual(added, ['a']);
  assert.equal(lists(), 1);

  double.closeWatches();
  double.store.create(pod('b', 'node-1'));
  await waitFor(() => added.includes('b'), 'b via re-watch');
  assert.equal(lists(), 1, 'resumed from its RV without relisting');

  double.closeWatches();
  double.store.create(pod('c', 'node-1'));
  double.store.delete('pods', 'default', 'a', { gracePeriodSeconds: 0 });
  double.store.compact();
  await waitFor(() => added.includes('c') && added.includes('-a'), 'c and a deletion after relist');
  assert.equal(lists(), 2, 'relisted after 410');
  assert.deepEqual(informer.list().map((p) => p.metadata?.name).sort(), ['b', 'c']);
});
