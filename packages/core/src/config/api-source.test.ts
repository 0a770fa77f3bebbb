import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { FakeApiClient, fail, ok } from '../apiclient/testing/fake-client.ts';
import { ApiPodSource } from './api-source.ts';
import type { PodUpdate } from './types.ts';
import { MergedPodConfig } from './pod-config.ts';

const pod = (name: string, rv: string, extra: Partial<V1Pod['metadata']> = {}): V1Pod => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: rv, ...extra },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] },
});

function setup(listRv = '10') {
  const clock = new FakeClock();
  const updates: PodUpdate[] = [];
  let lists = 0;
  const client = new FakeApiClient(() => {
    lists++;
    return ok({ metadata: { resourceVersion: lists === 1 ? listRv : '50' }, items: lists === 1 ? [pod('a', '5')] : [pod('a', '5'), pod('b', '49')] });
  });
  const source = new ApiPodSource({ client, clock, onUpdate: (u) => updates.push(u) }, { nodeName: 'n1' });
  const names = (u: PodUpdate | undefined) => (u?.pods ?? []).map((p) => p.metadata?.name).sort();
  return { clock, client, source, updates, names };
}

describe('ApiPodSource', () => {
  it('lists with the node field selector, then watches from the list RV, tracking RVs (bookmarks too)', async () => {
    const { clock, client, source, updates, names } = setup();
    client.watchScript = [
      {
        events: [
          { type: 'ADDED', object: pod('b', '11') },
          { type: 'BOOKMARK', object: { metadata: { resourceVersion: '20' } } },
          { type: 'MODIFIED', object: pod('a', '21', { deletionTimestamp: new Date(0) }) },
          { type: 'DELETED', object: pod('b', '22') },
        ],
        end: { ok: true, reason: 'Closed' },
      },
    ];
    await source.start();
    await clock.step(0);
    assert.equal(client.calls[0]?.query?.fieldSelector, 'spec.nodeName=n1');
    assert.deepEqual(updates.map((u) => [u.op, u.source, names(u).join(',')]), [
      ['SET', 'api', 'a'],
      ['SET', 'api', 'a,b'],
      ['SET', 'api', 'a,b'],
      ['SET', 'api', 'a'],
    ]);
    assert.ok(updates[2]?.pods.find((p) => p.metadata?.name === 'a')?.metadata?.deletionTimestamp);
    assert.equal(updates[0]?.pods[0]?.metadata?.annotations?.['kubernetes.io/config.source'], 'api');
    assert.deepEqual(client.watches.map((w) => [w.query?.resourceVersion, w.query?.allowWatchBookmarks, w.query?.fieldSelector]), [
      ['10', true, 'spec.nodeName=n1'],
      ['22', true, 'spec.nodeName=n1'],
    ]);
    await source.stop();
  });

  it('relists on 410 Expired and reports the new full set', async () => {
    const { clock, client, source, updates, names } = setup();
    client.watchScript = [{ events: [], end: { ok: false, status: 410, reason: 'Expired', message: 'too old resource version: 10 (40)' } }];
    await source.start();
    await clock.step(0);
    assert.equal(source.lists, 2);
    assert.deepEqual(names(updates.at(-1)), ['a', 'b']);
    assert.equal(client.watches.at(-1)?.query?.resourceVersion, '50');
    await source.stop();
  });

  it('backs off 800 ms doubling while the API server fails, resets after success', async () => {
    const { clock, client, source, updates } = setup();
    const real = client.handler;
    const at: number[] = [];
    const t0 = clock.now();
    client.handler = (req, n) => {
      at.push(clock.now() - t0);
      return n <= 3 ? fail(0, 'ConnectionError', 'ECONNREFUSED') : real(req, n);
    };
    void source.start();
    await clock.step(0);
    assert.equal(updates.length, 0, 'not ready before the first list');
    await clock.step(800 + 1600);
    assert.deepEqual(at, [0, 800, 2400]);
    await clock.step(3200);
    assert.deepEqual(at, [0, 800, 2400, 5600]);
    assert.equal(updates.length, 1);
    await source.stop();
  });

  it('gates sourcesReady (and so housekeeping deletions) until the API source has listed once', async () => {
    const clock = new FakeClock();
    const podConfig = new MergedPodConfig({ clock });
    podConfig.channel('file')({ op: 'SET', pods: [], source: 'file' });
    const client = new FakeApiClient(() => fail(0, 'ConnectionError', 'ECONNREFUSED'));
    const source = new ApiPodSource({ client, clock, onUpdate: podConfig.channel('api') }, { nodeName: 'n1' });
    void source.start();
    await clock.step(5_000);
    assert.equal(podConfig.sourcesReady(), false, 'API server down: not ready, nothing may be cleaned up');
    client.handler = () => ok({ metadata: { resourceVersion: '1' }, items: [pod('a', '1')] });
    await clock.step(30_000);
    assert.equal(podConfig.sourcesReady(), true);
    assert.deepEqual(podConfig.pods('api').map((p) => p.metadata?.name), ['a']);
    await source.stop();
  });
});
