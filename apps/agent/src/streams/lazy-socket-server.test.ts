/**
 * socket.io is attached on the first /socket.io request or upgrade (lazy-socket-server.ts): nothing before, the guard
 * on that first request as on every later one, and either kind of first contact connects.
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, it } from 'node:test';
import { io as connect } from 'socket.io-client';
import { FakeKubelet } from '../testing/fake-kubelet.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import type { HelloPayload } from './types.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function server(): Promise<TestServer> {
  const s = await startTestServer(new FakeKubelet());
  servers.push(s);
  return s;
}

const hello = (ts: TestServer, transports: Array<'websocket' | 'polling'>) =>
  new Promise<HelloPayload>((resolve, reject) => {
    const c = connect(ts.base, { path: '/socket.io', transports, reconnection: false, ...ts.consoleTls });
    c.once('nodelet:hello', (h) => (c.disconnect(), resolve(h)));
    c.once('connect_error', (e) => (c.disconnect(), reject(e)));
  });

for (const transport of ['websocket', 'polling'] as const) {
  it(`attached by a first contact over ${transport}, not before`, async () => {
    const ts = await server();
    assert.equal(ts.srv.sockets.io, undefined, 'no socket.io until somebody asks');
    assert.equal((await hello(ts, [transport])).node.name, 'fake-node');
    assert.ok(ts.srv.sockets.io);
  });
}

it('the first request is guarded as the others: an anonymous handshake is refused (401)', async () => {
  const ts = await server();
  const status = await new Promise<number>((resolve, reject) => {
    const r = request(`${ts.base}/socket.io/?EIO=4&transport=polling`, { ...ts.anonymousTls }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
    r.on('error', reject);
    r.end();
  });
  assert.equal(status, 401);
  assert.equal((await hello(ts, ['polling'])).node.name, 'fake-node', 'then a console client connects');
});
