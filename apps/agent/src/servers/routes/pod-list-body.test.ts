import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { nullLogger } from '@nodelet/core/util';
import { fakePod, FakeKubelet } from '../../testing/fake-kubelet.ts';
import { doRequest } from '../../testing/https-client.ts';
import { createReadOnlyServer, type PlainServer } from '../readonly-server.ts';
import { PodListBody } from './pod-list-body.ts';
import { podList } from './pods.ts';

/** What the kubelet's getPods() hands out: a fresh object per call, the pod's fields and the status manager's status. */
const served = (pods: V1Pod[], statuses: Map<string, V1PodStatus>): V1Pod[] => pods.map((p) => ({ ...p, status: statuses.get(p.metadata?.uid ?? '') ?? { phase: 'Pending' } }));
const text = (b: Buffer) => b.toString('utf8');
const expected = (items: V1Pod[]) => JSON.stringify(podList(items));

describe('PodListBody', () => {
  it('is byte for byte JSON.stringify of the PodList (empty list, Dates, absent and undefined fields)', () => {
    const c = new PodListBody();
    assert.equal(text(c.body([])), '{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]}');
    const a = fakePod('default', 'a');
    const withDate: V1Pod = { ...fakePod('kube-system', 'b', ['x', 'y']), status: { phase: 'Running', startTime: new Date(Date.UTC(2026, 10, 26, 15, 0, 0)), podIP: undefined } };
    const items = [a, withDate, { metadata: { name: 'no-status' } } as V1Pod];
    assert.equal(text(c.body(items)), expected(items));
    assert.equal(text(c.body(items)), expected(items), 'served again from the cache');
  });

  it('a new status version shows on the next body (the status manager stores a new object per version)', () => {
    const c = new PodListBody();
    const pods = [fakePod('default', 'web'), fakePod('default', 'db')];
    const statuses = new Map<string, V1PodStatus>([[pods[0]!.metadata!.uid!, { phase: 'Running', containerStatuses: [{ name: 'main', image: 'i', imageID: '', ready: true, restartCount: 0, state: { running: {} } }] }]]);
    assert.equal(text(c.body(served(pods, statuses))), expected(served(pods, statuses)));
    statuses.set(pods[0]!.metadata!.uid!, { phase: 'Failed', containerStatuses: [{ name: 'main', image: 'i', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 137, reason: 'Error' } } }] });
    const next = text(c.body(served(pods, statuses)));
    assert.equal(next, expected(served(pods, statuses)));
    assert.match(next, /"terminated":\{"exitCode":137/);
  });

  it('a pod replaced by the pod manager shows, also when it keeps its metadata object', () => {
    const c = new PodListBody();
    const pod = fakePod('default', 'web');
    c.body([pod]);
    const respec: V1Pod = { ...pod, spec: { containers: [{ name: 'other', image: 'busybox' }] } };
    assert.equal(text(c.body([respec])), expected([respec]));
    const relabelled: V1Pod = { ...respec, metadata: { ...respec.metadata, labels: { app: 'web' } } };
    assert.equal(text(c.body([relabelled])), expected([relabelled]));
    const extraField = { ...relabelled, extra: 1 } as V1Pod;
    assert.equal(text(c.body([extraField])), expected([extraField]), 'a new own key');
  });

  it('added, removed and reordered pods show', () => {
    const c = new PodListBody();
    const [a, b, d] = [fakePod('default', 'a'), fakePod('default', 'b'), fakePod('default', 'd')];
    c.body([a, b]);
    for (const items of [[a, b, d], [a, d], [d, a], []]) assert.equal(text(c.body(items)), expected(items));
  });

  it('an unchanged list is the same buffer, not serialised again', () => {
    const c = new PodListBody();
    const pods = [fakePod('default', 'a'), fakePod('default', 'b')];
    const statuses = new Map<string, V1PodStatus>([[pods[1]!.metadata!.uid!, { phase: 'Running' }]]);
    const first = c.body(served(pods, statuses));
    assert.equal(c.body(served(pods, statuses)), first);
    statuses.set(pods[1]!.metadata!.uid!, { phase: 'Succeeded' });
    assert.notEqual(c.body(served(pods, statuses)), first);
  });
});

describe('GET /pods on the read-only port', () => {
  const kubelet = new FakeKubelet();
  let srv: PlainServer;
  let base = '';
  before(async () => {
    srv = createReadOnlyServer(kubelet, nullLogger);
    base = `http://127.0.0.1:${await srv.listen(0, '127.0.0.1')}`;
  });
  after(() => srv.close());

  it('shows a status change on the next GET, with a matching Content-Length', async () => {
    const pod = fakePod('default', 'web');
    kubelet.pods = [pod];
    assert.equal((await doRequest(`${base}/pods`)).body, expected([pod]));
    kubelet.pods = [{ ...pod, status: { phase: 'Failed', reason: 'Evicted' } }];
    const r = await doRequest(`${base}/pods`);
    assert.equal(r.body, expected(kubelet.pods));
    assert.equal(Number(r.headers['content-length']), Buffer.byteLength(r.body));
    assert.equal(r.headers['content-type'], 'application/json');
  });
});
