import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { io as connect, type Socket } from 'socket.io-client';
import type { NodeletEvent } from '@nodelet/core/events/types.ts';
import { FakeKubelet } from '../testing/fake-kubelet.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import type { ClientToServerEvents, HelloPayload, ServerToClientEvents } from './types.ts';

let ts: TestServer;
const kubelet = new FakeKubelet();
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
});
