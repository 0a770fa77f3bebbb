/**
 * socket.io on the kubelet port, and the two transports of the one event hub: every event type and a stats sample
 * arrive over socket.io exactly as over the tRPC subscriptions (one server on port 0, a fake kubelet).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { io as connect, type Socket } from 'socket.io-client';
import type { NodeletEvent, NodeletEventInput } from '@nodelet/core/events';
import { FakeKubelet } from '../testing/fake-kubelet.ts';
import { FakeStats, sample, T0 } from '../testing/fake-stats.ts';
import { startTestServer, trpcTestClient, type TestServer } from '../testing/test-server.ts';
import type { ClientToServerEvents, HelloPayload, MetricsMessage, ServerToClientEvents } from './types.ts';

class StreamingKubelet extends FakeKubelet {
  readonly stats = new FakeStats();
}

let ts: TestServer;
const kubelet = new StreamingKubelet();
const clients: Socket[] = [];

before(async () => {
  ts = await startTestServer(kubelet);
});
after(async () => {
  for (const c of clients) c.disconnect();
  await ts.close();
});

function client(withCert: boolean, transports: Array<'websocket' | 'polling'>): Socket<ServerToClientEvents, ClientToServerEvents> {
  const c: Socket<ServerToClientEvents, ClientToServerEvents> = connect(ts.base, {
    path: '/socket.io',
    transports,
    reconnection: false,
    ...(withCert ? ts.consoleTls : ts.anonymousTls),
  });
  clients.push(c);
  return c;
}

const pleg = { type: 'pleg' as const, pod: { namespace: 'default', name: 'web', uid: 'u1' }, pleg: 'ContainerDied' as const, containerId: 'c1' };

for (const transport of ['websocket', 'polling'] as const) {
  describe(`socket.io over ${transport}`, () => {
    it('with the console certificate: hello, then published events', async () => {
      const c = client(true, [transport]);
      const hello = await new Promise<HelloPayload>((resolve, reject) => {
        c.once('nodelet:hello', resolve);
        c.once('connect_error', reject);
      });
      assert.equal(hello.node.name, 'fake-node');
      const got = new Promise<NodeletEvent>((resolve) => c.once('nodelet:event', resolve));
      const sent = kubelet.events.publish(pleg);
      const e = await got;
      assert.equal(e.seq, sent.seq);
      assert.equal(e.type, 'pleg');
      assert.ok(e.time);
      c.disconnect();
    });

    it('refuses a handshake without a client certificate', async () => {
      const c = client(false, [transport]);
      const err = await new Promise<Error>((resolve) => {
        c.once('connect_error', resolve);
        c.once('connect', () => resolve(new Error('connected')));
      });
      assert.notEqual(err.message, 'connected');
      assert.equal(c.connected, false);
    });
  });
}

describe('nodelet:subscribe', () => {
  it('replaces the filter and replays matching recent events', async () => {
    kubelet.events.publish({ ...pleg, pod: { namespace: 'kube-system', name: 'dns', uid: 'u2' } });
    const c = client(true, ['websocket']);
    await new Promise((resolve) => c.once('nodelet:hello', resolve));
    const events: NodeletEvent[] = [];
    c.on('nodelet:event', (e) => events.push(e));
    const replayed = new Promise<void>((resolve) => c.once('nodelet:event', () => resolve()));
    c.emit('nodelet:subscribe', { namespace: 'kube-system' });
    await replayed;
    kubelet.events.publish(pleg);
    const live = kubelet.events.publish({ ...pleg, pod: { namespace: 'kube-system', name: 'dns', uid: 'u2' }, pleg: 'ContainerStarted' });
    await new Promise<void>((resolve) => {
      const check = () => (events.some((e) => e.seq === live.seq) ? resolve() : c.once('nodelet:event', check));
      check();
    });
    assert.ok(events.every((e) => e.type === 'pleg' && e.pod.namespace === 'kube-system'), 'only kube-system events');
    c.disconnect();
  });

  it('sockets without a filter share one hub feed (one encoding per event); each gets every event once', async () => {
    const subscribersBecome = async (n: number) => {
      for (let i = 0; i < 200 && kubelet.subscribers !== n; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(kubelet.subscribers, n);
    };
    await subscribersBecome(0); // the sockets of the tests before are gone
    const before = 0;
    const [a, b, f] = [client(true, ['websocket']), client(true, ['websocket']), client(true, ['websocket'])];
    await Promise.all([a, b, f].map((c) => new Promise((resolve) => c.once('nodelet:hello', resolve))));
    assert.equal(kubelet.subscribers, before + 1, 'one feed for three unfiltered sockets');
    const seen = new Map<Socket, number[]>([a, b, f].map((c) => [c, []]));
    for (const [c, seqs] of seen) c.on('nodelet:event', (e) => seqs.push(e.seq));
    f.emit('nodelet:subscribe', { namespace: 'kube-system' });
    await kubelet.waitForSubscribers(before + 2);
    const sent = [kubelet.events.publish(pleg).seq, kubelet.events.publish({ ...pleg, pleg: 'ContainerStarted' }).seq];
    const last = kubelet.events.publish({ ...pleg, pod: { namespace: 'kube-system', name: 'dns', uid: 'u2' } }).seq;
    sent.push(last);
    await Promise.all([a, b, f].map((c) => new Promise<void>((resolve) => {
      const check = () => (seen.get(c)!.includes(last) ? resolve() : c.once('nodelet:event', check));
      check();
    })));
    assert.deepEqual(seen.get(a), sent);
    assert.deepEqual(seen.get(b), sent);
    assert.deepEqual(seen.get(f)!.filter((s) => s >= sent[0]!), [last], 'the filtered socket left the shared feed');
    a.disconnect();
    b.disconnect();
    await subscribersBecome(before + 1); // f's own
    f.disconnect();
    await subscribersBecome(before); // and the shared feed went with its last socket
  });
});

const pod = { namespace: 'default', name: 'web', uid: 'u1' };
/** One event of every type of the NodeletEvent union, as the managers publish them. */
const everyType: NodeletEventInput[] = [
  { type: 'pleg', pod, pleg: 'ContainerStarted', containerId: 'c1', containerName: 'main' },
  {
    type: 'podStatus', pod, phase: 'Running', ready: true,
    containers: [{ name: 'main', state: 'running', ready: true, restartCount: 0 }],
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [] },
  },
  { type: 'podConfig', pod, op: 'ADD', source: 'file' },
  {
    type: 'k8sEvent', eventType: 'Warning', reason: 'Unhealthy', message: 'Liveness probe failed: HTTP probe failed with statuscode: 500',
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', fieldPath: 'spec.containers{main}' }, count: 2,
    firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:10Z',
  },
  { type: 'runtime', ready: false, message: 'container runtime is down' },
  { type: 'probe', pod, container: 'main', probeType: 'liveness', result: 'failure', previous: 'success', output: 'HTTP probe failed with statuscode: 500', latencyMs: 3, effective: 'success' },
  { type: 'pressure', conditions: ['MemoryPressure'], signals: [{ signal: 'memory.available', available: 1, capacity: 4096, met: true }] },
  { type: 'gc', kind: 'images', trigger: 'manual', removed: ['busybox:latest'], freedBytes: 42, errors: [] },
];

describe('one event hub, two transports', () => {
  it('every event type arrives identically over socket.io nodelet:event and tRPC lifecycle.onEvent', async () => {
    const c = client(true, ['websocket']);
    const viaSocket: NodeletEvent[] = [];
    c.on('nodelet:event', (e) => viaSocket.push(e));
    await new Promise((resolve) => c.once('nodelet:hello', resolve));
    const subscribed = kubelet.subscribers;
    const viaTrpc: Array<{ id: string; data: NodeletEvent }> = [];
    let published: NodeletEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = trpcTestClient(ts.base, ts.consoleTls).lifecycle.onEvent.subscribe(undefined, {
        onStarted: async () => {
          await kubelet.waitForSubscribers(subscribed + 1);
          published = everyType.map((e) => kubelet.events.publish(e));
        },
        onData: (d) => {
          viaTrpc.push(d as { id: string; data: NodeletEvent });
          if (viaTrpc.length === everyType.length) {
            sub.unsubscribe();
            resolve();
          }
        },
        onError: reject,
      });
    });
    await new Promise<void>((resolve) => {
      const check = () => (viaSocket.length >= everyType.length ? resolve() : c.once('nodelet:event', check));
      check();
    });
    const wire = JSON.parse(JSON.stringify(published)) as NodeletEvent[];
    assert.deepEqual(viaSocket, wire);
    assert.deepEqual(viaTrpc.map((d) => d.data), wire);
    assert.deepEqual(viaTrpc.map((d) => d.id), wire.map((e) => String(e.seq)));
    assert.deepEqual(wire.map((e) => e.type), ['pleg', 'podStatus', 'podConfig', 'k8sEvent', 'runtime', 'probe', 'pressure', 'gc']);
    c.disconnect();
  });

  it('a stats sample arrives identically over socket.io nodelet:metrics and tRPC stats.onSample', async () => {
    const c = client(true, ['websocket']);
    const viaSocket = new Promise<MetricsMessage>((resolve) => c.once('nodelet:metrics', resolve));
    await new Promise((resolve) => c.once('nodelet:hello', resolve));
    c.emit('nodelet:metrics:subscribe', { keys: ['/'] });
    await kubelet.stats.waitForWatches('/', 1);
    const s = sample(T0, 42);
    const viaTrpc = new Promise<MetricsMessage>((resolve, reject) => {
      const sub = trpcTestClient(ts.base, ts.consoleTls).stats.onSample.subscribe({ keys: ['/'] }, {
        onStarted: async () => {
          await kubelet.stats.waitForWatches('/', 2);
          kubelet.stats.emit('/', s);
        },
        onData: (m) => {
          sub.unsubscribe();
          resolve(m);
        },
        onError: reject,
      });
    });
    const want = JSON.parse(JSON.stringify({ key: '/', sample: s })) as MetricsMessage;
    assert.deepEqual(await viaSocket, want);
    assert.deepEqual(await viaTrpc, want);
    c.disconnect();
  });
});
