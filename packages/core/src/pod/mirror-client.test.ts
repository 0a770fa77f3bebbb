import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { nullLogger } from '../util/logger.ts';
import { FakeApiClient, ok } from '../apiclient/testing/fake-client.ts';
import { MirrorClient, buildMirrorPod } from './mirror-client.ts';

const staticPod = (hash: string): V1Pod => ({
  metadata: { name: 'st-n1', namespace: 'kube-system', uid: hash, annotations: { 'kubernetes.io/config.hash': hash, 'kubernetes.io/config.source': 'file' } },
  spec: { containers: [{ name: 'c', image: 'i' }] },
});
const mirror = (hash: string, extra: Partial<V1Pod['metadata']> = {}): V1Pod => ({
  metadata: { name: 'st-n1', namespace: 'kube-system', uid: `m-${hash}`, annotations: { 'kubernetes.io/config.mirror': hash }, ...extra },
});

describe('MirrorClient', () => {
  it('builds the mirror: config.mirror = hash, node owner, nodeName', () => {
    const m = buildMirrorPod(staticPod('h1'), 'n1', 'node-uid');
    assert.equal(m.metadata?.annotations?.['kubernetes.io/config.mirror'], 'h1');
    assert.equal(m.metadata?.annotations?.['kubernetes.io/config.source'], 'file');
    assert.equal(m.metadata?.uid, undefined);
    assert.deepEqual(m.metadata?.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid', controller: true }]);
    assert.equal(m.spec?.nodeName, 'n1');
  });

  const cases: Array<{ name: string; statics: V1Pod[]; mirrors: V1Pod[]; ready?: boolean; calls: string[] }> = [
    { name: 'missing → created', statics: [staticPod('h1')], mirrors: [], calls: ['POST /api/v1/namespaces/kube-system/pods'] },
    { name: 'up to date → nothing', statics: [staticPod('h1')], mirrors: [mirror('h1')], calls: [] },
    { name: 'stale hash → deleted (recreated next pass)', statics: [staticPod('h2')], mirrors: [mirror('h1')], calls: ['DELETE /api/v1/namespaces/kube-system/pods/st-n1'] },
    { name: 'being deleted → deleted', statics: [staticPod('h1')], mirrors: [mirror('h1', { deletionTimestamp: new Date() })], calls: ['DELETE /api/v1/namespaces/kube-system/pods/st-n1'] },
    { name: 'orphan → deleted', statics: [], mirrors: [mirror('h1')], calls: ['DELETE /api/v1/namespaces/kube-system/pods/st-n1'] },
    { name: 'orphan while sources not ready → kept', statics: [], mirrors: [mirror('h1')], ready: false, calls: [] },
  ];
  for (const t of cases) {
    it(t.name, async () => {
      const client = new FakeApiClient(() => ok({}));
      const mc = new MirrorClient({ client, logger: nullLogger, nodeName: 'n1', nodeUid: () => 'node-uid' });
      await mc.reconcile(t.statics, t.mirrors, () => false, t.ready ?? true);
      assert.deepEqual(client.summary(), t.calls);
      const del = client.calls.find((c) => c.method === 'DELETE');
      if (del) assert.deepEqual((del.body as { preconditions: unknown }).preconditions, { uid: t.mirrors[0]?.metadata?.uid });
    });
  }
});
