/**
 * The console listener's limits (issue #12 item 6) against the real agent server: a client that never finishes its
 * headers is answered 408 and dropped, the connection cap closes extra connections, proxied bodies over the limit are
 * 413 (declared or chunked) and never reach the agent, malformed escapes are 400, oversized headers 431.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { DEFAULT_LIMITS } from './config.ts';
import { rawRequest } from './testing/raw-http.ts';
import { startConsoleStack, type ConsoleStack } from './testing/console-stack.ts';

let s: ConsoleStack;
let cookie: string;
const limits = { ...DEFAULT_LIMITS, headersTimeoutMs: 300, requestTimeoutMs: 600, maxConnections: 3, maxBodyBytes: 1024 };
let capped: ConsoleStack; // default timeouts (the held connections stay), cap of 3

before(async () => {
  capped = await startConsoleStack({ limits: { ...DEFAULT_LIMITS, maxConnections: 3 } });
});
after(() => capped.close());

before(async () => {
  s = await startConsoleStack({ limits });
  cookie = await s.signIn();
});
after(() => s.close());

/** Opens a connection, writes `text`, and collects what the server sends until it closes the connection. */
function dribble(text: string, port = s.port): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
      resolve({ socket, closed });
    });
    let got = '';
    socket.on('data', (d) => (got += String(d)));
    const closed = new Promise<string>((r) => socket.on('close', () => r(got)));
    socket.on('error', reject);
  });
}

test('the server applies the configured limits', () => {
  const srv = s.console.server;
  assert.deepEqual([srv.headersTimeout, srv.requestTimeout, srv.keepAliveTimeout, srv.maxConnections], [300, 600, DEFAULT_LIMITS.keepAliveTimeoutMs, 3]);
});

test('a client that never finishes its headers is answered 408 and dropped', async () => {
  const c = await dribble('GET /trpc/node.get HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
  const got = await c.closed;
  assert.match(got, /^HTTP\/1\.1 408 /);
});

test('connections beyond the cap are closed at once; the held ones still work afterwards', async () => {
  const held = await Promise.all([1, 2, 3].map(() => dribble('GET / HTTP/1.1\r\n', capped.port)));
  const extra = await dribble('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', capped.port);
  assert.equal(await extra.closed, '', 'the fourth connection is closed without an answer');
  for (const h of held) h.socket.destroy();
  await Promise.all(held.map((h) => h.closed));
  // The server counts a connection gone when its side closes, a moment after ours: retry briefly.
  let status = 0;
  for (let i = 0; i < 50 && status !== 200; i++) {
    status = await capped.signIn().then((c) => rawRequest(capped.port, { target: '/trpc/node.get', headers: { cookie: c } })).then((r) => r.status, () => 0);
    if (status !== 200) await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(status, 200);
});

test('proxied bodies over the limit are 413 and never reach the agent; malformed escapes 400; huge headers 431', async () => {
  const origin = `http://127.0.0.1:${s.port}`;
  const headers = { cookie, origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', 'x-nodelet-csrf': '1' };
  const before = s.agentSeen.length;
  const big = JSON.stringify({ pad: 'x'.repeat(2000) });
  const declared = await rawRequest(s.port, { method: 'POST', target: '/trpc/gc.containers', headers, body: big });
  assert.equal(declared.status, 413);
  const chunk = `${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`;
  const c = await dribble(`POST /trpc/gc.containers HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}transfer-encoding: chunked\r\nconnection: close\r\n\r\n${chunk}`);
  assert.match(await c.closed, /^HTTP\/1\.1 413 /);
  const socketPost = await rawRequest(s.port, { method: 'POST', target: '/socket.io/?EIO=4&transport=polling&sid=x', headers, body: big });
  assert.equal(socketPost.status, 413);
  assert.deepEqual(s.agentSeen.slice(before), []);
  for (const target of ['/trpc/node.get%zz', '/pods/%E0%A4%A', '/trpc/node.get?input=%']) {
    assert.equal((await rawRequest(s.port, { target, headers: { cookie } })).status, 400, target);
  }
  const huge = await rawRequest(s.port, { target: '/', headers: { cookie, 'x-big': 'y'.repeat(20_000) } });
  assert.equal(huge.status, 431);
});
