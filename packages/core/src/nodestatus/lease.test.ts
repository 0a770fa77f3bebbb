import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Lease } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeApiClient, fail, ok } from '../apiclient/testing/fake-client.ts';
import type { ApiRequest } from '../apiclient/types.ts';
import { NodeLeaseController, microTime } from './lease.ts';

const PATH = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1';

/** A lease store with resourceVersion checks on PUT (409 on a stale RV). */
function leaseApi() {
  let lease: V1Lease | undefined;
  let rv = 1;
  const client = new FakeApiClient((req: ApiRequest) => {
    if (req.method === 'GET') return lease ? ok(structuredClone(lease)) : fail(404, 'NotFound');
    const body = structuredClone(req.body) as V1Lease;
    if (req.method === 'POST') {
      lease = { ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } };
      return ok(structuredClone(lease), 201);
    }
    if (req.method === 'PUT') {
      if (body.metadata?.resourceVersion !== lease?.metadata?.resourceVersion) return fail(409, 'Conflict', 'the object has been modified');
      lease = { ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } };
      return ok(structuredClone(lease));
    }
    return fail(405, 'MethodNotAllowed');
  });
  return { client, lease: () => lease, bump: () => lease && (lease.metadata!.resourceVersion = String(++rv)) };
}

describe('NodeLeaseController', () => {
  it('creates the lease, renews it every 10 s, re-gets after a conflict', async () => {
    const clock = new FakeClock();
    const api = leaseApi();
    let uid: string | undefined;
    const c = new NodeLeaseController({ client: api.client, clock, logger: nullLogger, nodeUid: () => uid }, { nodeName: 'n1' });
    c.start();
    await clock.step(0);
    assert.deepEqual(api.client.summary(), [`GET ${PATH}`, 'POST /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases']);
    assert.equal(api.lease()?.spec?.holderIdentity, 'n1');
    assert.equal(api.lease()?.spec?.leaseDurationSeconds, 40);
    assert.equal(String(api.lease()?.spec?.renewTime), microTime(clock.now()));
    assert.equal(api.lease()?.metadata?.ownerReferences, undefined, 'no owner before the node uid is known');

    uid = 'node-uid';
    await clock.step(10_000);
    assert.equal(api.client.summary().at(-1), `PUT ${PATH}`);
    assert.equal(String(api.lease()?.spec?.renewTime), microTime(clock.now()));
    assert.deepEqual(api.lease()?.metadata?.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid' }]);

    api.bump(); // someone else wrote the lease: our cached RV is stale
    await clock.step(10_000);
    assert.equal(api.client.summary().at(-1), `PUT ${PATH}`, 'conflicting renew');
    const before = api.client.calls.length;
    await clock.step(199);
    assert.equal(api.client.calls.length, before, 'retry waits 200 ms');
    await clock.step(1);
    assert.deepEqual(api.client.summary().slice(before), [`GET ${PATH}`, `PUT ${PATH}`], 're-get, then renew');
    assert.equal(String(api.lease()?.spec?.renewTime), microTime(clock.now()));
    assert.equal(c.renewals, 3);
    c.stop();
  });

  it('backs off 200 ms doubling to 7 s while the API server is down', async () => {
    const clock = new FakeClock();
    const client = new FakeApiClient(() => fail(0, 'ConnectionError', 'ECONNREFUSED'));
    const c = new NodeLeaseController({ client, clock, logger: nullLogger, nodeUid: () => undefined }, { nodeName: 'n1' });
    c.start();
    await clock.step(0);
    const times: number[] = [];
    const t0 = clock.now();
    client.handler = () => {
      times.push(clock.now() - t0);
      return fail(0, 'ConnectionError', 'ECONNREFUSED');
    };
    await clock.step(20_000);
    assert.deepEqual(times, [200, 600, 1400, 3000, 6200, 12_600, 19_600]);
    c.stop();
  });
});
