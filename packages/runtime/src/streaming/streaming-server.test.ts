/** The streaming server's tokens: one-time, expiring (injected clock), kind-checked; subprotocol negotiation. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonLogger } from '../util/logger.ts';
import { ERROR, frame } from './channel-protocol.ts';
import { startStreamingServer, type StreamingServer } from './streaming-server.ts';
import { openChannelSession } from './testing/channel-client.ts';
import { connectSpdy } from './testing/spdy-client.ts';

let now = 1_000_000;
let server: StreamingServer;
const opened: string[] = [];
before(async () => {
  server = await startStreamingServer({
    exec: (ws, req) => {
      opened.push(`exec:${req.cmd.join(' ')}`);
      ws.send(frame(ERROR, '{"metadata":{},"status":"Success"}'), () => ws.close(1000));
    },
    portForward: (ws, req) => {
      opened.push(`pf:${req.ports.join(',')}`);
      ws.close(1000);
    },
    spdy: (socket, req, protocol) => {
      opened.push(`spdy:${req.kind}:${protocol}`);
      socket.end();
    },
  }, jsonLogger(() => undefined), { ttlMs: 1000, now: () => now });
});
after(() => server.close());

const exec = (cmd: string) => ({ kind: 'exec' as const, containerId: 'c1', cmd: [cmd], tty: false, stdin: false, stdout: true, stderr: true });

test('URL is on 127.0.0.1 under /<kind>/<token>, distinct per request', () => {
  const a = server.register(exec('a'));
  const b = server.register(exec('a'));
  assert.match(a, /^http:\/\/127\.0\.0\.1:\d+\/exec\/[A-Za-z0-9_-]{22}$/);
  assert.notEqual(a, b);
});

test('a token opens one session only; the second upgrade is refused with 404', async () => {
  opened.length = 0;
  const url = server.register(exec('once')).replace('http:', 'ws:');
  const s = await openChannelSession(url, ['v4.channel.k8s.io']);
  assert.equal(s.protocol, 'v4.channel.k8s.io');
  await s.closed;
  assert.deepEqual(JSON.parse(s.text(ERROR)), { metadata: {}, status: 'Success' });
  await assert.rejects(openChannelSession(url, ['v4.channel.k8s.io']), /upgrade refused: 404/);
  assert.deepEqual(opened, ['exec:once']);
});

test('refusals: expired token, wrong kind in the path, unsupported subprotocol', async () => {
  opened.length = 0;
  const expired = server.register(exec('late')).replace('http:', 'ws:');
  now += 1001;
  await assert.rejects(openChannelSession(expired, ['v4.channel.k8s.io']), /upgrade refused: 404/);
  const wrongKind = server.register(exec('x')).replace('http:', 'ws:').replace('/exec/', '/portforward/');
  await assert.rejects(openChannelSession(wrongKind, ['portforward.k8s.io']), /upgrade refused: 404/);
  const spdy = server.register(exec('y')).replace('http:', 'ws:');
  await assert.rejects(openChannelSession(spdy, ['v3.channel.k8s.io']), /upgrade refused: 400/);
  assert.deepEqual(opened, []);
});

test('port-forward requests reach the port-forward handler', async () => {
  opened.length = 0;
  const url = server.register({ kind: 'portforward', podSandboxId: 'p1', ports: [8080] }).replace('http:', 'ws:');
  const s = await openChannelSession(url, ['portforward.k8s.io']);
  await s.closed;
  assert.deepEqual(opened, ['pf:8080']);
});

test('SPDY/3.1 upgrades: the first protocol the client offers that we speak; none → 403 naming both lists', async () => {
  opened.length = 0;
  const v4 = await connectSpdy(server.register(exec('a')), ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'channel.k8s.io']);
  assert.equal(v4.protocol, 'v4.channel.k8s.io');
  await v4.closed;
  const v2 = await connectSpdy(server.register(exec('b')), ['v2.channel.k8s.io', 'v4.channel.k8s.io']);
  assert.equal(v2.protocol, 'v2.channel.k8s.io');
  await v2.closed;
  const pf = await connectSpdy(server.register({ kind: 'portforward', podSandboxId: 'p1', ports: [] }), ['portforward.k8s.io']);
  assert.equal(pf.protocol, 'portforward.k8s.io');
  await pf.closed;
  const none = await connectSpdy(server.register(exec('c')), []);
  assert.equal(none.protocol, '');
  await none.closed;
  await assert.rejects(connectSpdy(server.register(exec('d')), ['v5.channel.k8s.io']),
    /upgrade refused: 403: unable to upgrade: unable to negotiate protocol: client supports \[v5.channel.k8s.io\], server supports \[v4.channel.k8s.io v3.channel.k8s.io v2.channel.k8s.io channel.k8s.io\]/);
  await assert.rejects(connectSpdy(server.register(exec('e')).replace('/exec/', '/attach/'), ['v4.channel.k8s.io']), /upgrade refused: 404/);
  assert.deepEqual(opened, ['spdy:exec:v4.channel.k8s.io', 'spdy:exec:v2.channel.k8s.io', 'spdy:portforward:portforward.k8s.io', 'spdy:exec:']);
});
