import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NodeletEvent } from '@nodelet/core/events';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import type { TlsClientOptions } from '../testing/https-client.ts';
import { startTestServer, trpcTestClient, type TestServer } from '../testing/test-server.ts';

let ts: TestServer;
const kubelet = new FakeKubelet();
kubelet.pods = [fakePod('default', 'web'), fakePod('kube-system', 'dns')];

before(async () => {
  ts = await startTestServer(kubelet);
});
after(() => ts.close());

const client = (tls: TlsClientOptions) => trpcTestClient(ts.base, tls);

describe('tRPC over https with the console certificate', () => {
  let tls: TlsClientOptions;
  before(() => {
    tls = ts.consoleTls;
  });

  it('pods.list, with and without a namespace', async () => {
    const c = client(tls);
    assert.deepEqual((await c.pods.list.query()).map((p) => p.metadata?.name), ['web', 'dns']);
    assert.deepEqual((await c.pods.list.query({ namespace: 'kube-system' })).map((p) => p.metadata?.name), ['dns']);
  });

  it('pods.get returns the pod and its Events, or null', async () => {
    kubelet.events.publish({
      type: 'k8sEvent', eventType: 'Normal', reason: 'Started', message: 'Started container main',
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web' }, count: 1,
      firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:00Z',
    });
    const c = client(tls);
    const got = await c.pods.get.query({ namespace: 'default', name: 'web' });
    assert.equal(got?.pod.metadata?.name, 'web');
    assert.deepEqual(got?.events.map((e) => e.reason), ['Started']);
    assert.equal(await c.pods.get.query({ namespace: 'default', name: 'ghost' }), null);
  });

  it('node.get merges the summary and health', async () => {
    const n = await client(tls).node.get.query();
    assert.equal(n.name, 'fake-node');
    assert.equal(n.health.ok, true);
    assert.equal(n.podCount, 2);
  });

  it('events.recent filters and limits', async () => {
    kubelet.events.publish({ type: 'runtime', ready: true, message: 'up' });
    const c = client(tls);
    const all = await c.events.recent.query({});
    assert.deepEqual(all.map((e) => e.type), ['k8sEvent', 'runtime']);
    assert.deepEqual((await c.events.recent.query({ types: ['runtime'] })).map((e) => e.type), ['runtime']);
    assert.equal((await c.events.recent.query({ limit: 1 })).length, 1);
  });

  it('lifecycle.onEvent streams matching events, tracked by seq', async () => {
    const c = client(tls);
    const received: Array<{ id: string; data: NodeletEvent }> = [];
    const done = new Promise<void>((resolve, reject) => {
      const sub = c.lifecycle.onEvent.subscribe(
        { namespace: 'default' },
        {
          onStarted: async () => {
            await kubelet.waitForSubscribers(1);
            kubelet.events.publish({ type: 'podConfig', pod: { namespace: 'other', name: 'x', uid: 'u0' }, op: 'ADD', source: 'file' });
            kubelet.events.publish({ type: 'pleg', pod: { namespace: 'default', name: 'web', uid: 'u1' }, pleg: 'ContainerStarted', containerId: 'c1' });
          },
          onData: (d) => {
            received.push(d as { id: string; data: NodeletEvent });
            sub.unsubscribe();
            resolve();
          },
          onError: reject,
        },
      );
    });
    await done;
    assert.equal(received.length, 1);
    assert.equal(received[0]?.data.type, 'pleg');
    assert.equal(received[0]?.id, String(received[0]?.data.seq));
  });

  it('lifecycle.onEvent with lastEventId: the missed matching events first, then live ones, none twice', async () => {
    const web = (pleg: 'ContainerStarted' | 'ContainerDied', namespace = 'default') =>
      kubelet.events.publish({ type: 'pleg', pod: { namespace, name: 'web', uid: 'u1' }, pleg, containerId: 'c1' });
    const seen = web('ContainerStarted');
    const missed = [web('ContainerDied'), web('ContainerStarted', 'other'), web('ContainerStarted')];
    let live: NodeletEvent | undefined;
    const received: Array<{ id: string; data: NodeletEvent }> = [];
    await new Promise<void>((resolve, reject) => {
      const sub = client(tls).lifecycle.onEvent.subscribe({ namespace: 'default', lastEventId: String(seen.seq) }, {
        onData: (d) => {
          received.push(d as { id: string; data: NodeletEvent });
          // The replay and the live subscription start in one step: once the replay arrives, new events follow.
          if (received.length === 2) live = web('ContainerDied');
          if (d.data.seq === live?.seq) {
            sub.unsubscribe();
            resolve();
          }
        },
        onError: reject,
      });
    });
    const want = [missed[0], missed[2], live].map((e) => String(e?.seq));
    assert.deepEqual(received.map((d) => d.id), want);
    assert.deepEqual(received.map((d) => String(d.data.seq)), want);
  });

  it('rejects a client without a certificate (401)', async () => {
    const c = client(ts.anonymousTls);
    await assert.rejects(c.node.get.query(), (err: Error) => /401|Unauthorized|JSON/i.test(err.message));
  });
});
