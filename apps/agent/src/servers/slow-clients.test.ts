/**
 * Connection limits against 500 slow clients (slowloris: connect, send part of a header, dribble; or connect and
 * stay silent) on a real kubelet server (TLS) and a real read-only server, port 0, with a cap of 100 connections
 * and a 5 s header timeout: the servers never hold more than the cap, refuse the rest, drop every slow client,
 * answer a normal client afterwards, and the process's RSS grows by less than 100 MiB (a resource bound).
 * Then, with tiny timeouts, streams outlive them: log follow, a tRPC SSE subscription, a socket.io websocket and a
 * port-forward upgrade proxied to a runtime streaming server (an echo here).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { io as ioConnect } from 'socket.io-client';
import type { NodeletEvent } from '@nodelet/core/events/types.ts';
import { nullLogger } from '@nodelet/core/util/logger.ts';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import { doRequest, openStream } from '../testing/https-client.ts';
import { startTestServer, trpcTestClient, type TestServer } from '../testing/test-server.ts';
import type { HttpLimits } from './limits.ts';
import { createReadOnlyServer, type PlainServer } from './readonly-server.ts';

const SLOW_CLIENTS = 500;
// The header timeout is long enough for the cap to fill even on a loaded machine (TLS handshakes are slow then).
const LIMITS: HttpLimits = { maxConnections: 100, headerTimeoutMs: 5000, idleTimeoutMs: 1000 };
const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const kubelet = new FakeKubelet();
kubelet.pods = [fakePod('default', 'web')];

/**
 * Tracks the most connections a server held at once (its own count, read when each is accepted: a socket's 'close'
 * event comes a tick after the server stopped counting it), and how many it refused (Node's 'drop' at the cap).
 */
function connectionGauge(server: import('node:net').Server): { max(): number; refused(): number } {
  let max = 0;
  let refused = 0;
  server.on('connection', () => server.getConnections((_err, n) => (max = Math.max(max, n))));
  server.on('drop', () => refused++);
  return { max: () => max, refused: () => refused };
}


/**
 * One slow client: 'partial' sends half a request head and then a header line every 200 ms; 'silent' sends nothing
 * (after the TLS handshake on TLS); 'tcp' opens a plain TCP connection and sends nothing (no TLS handshake either).
 * Resolves true when the client gave up (30 s) because the server never dropped it.
 */
function slowClient(port: number, secure: boolean, mode: 'partial' | 'silent' | 'tcp'): Promise<boolean> {
  return new Promise((resolve) => {
    let stuck = false;
    const tls = secure && mode !== 'tcp';
    const sock = tls ? tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false }) : netConnect(port, '127.0.0.1');
    let drip: NodeJS.Timeout | undefined;
    const start = () => {
      if (mode !== 'partial') return;
      sock.write('GET /pods HTTP/1.1\r\nHost: x\r\n');
      drip = setInterval(() => sock.writable && sock.write('X-Slow: 1\r\n'), 200);
    };
    sock.once(tls ? 'secureConnect' : 'connect', () => setTimeout(start, 20));
    const giveUp = setTimeout(() => {
      stuck = true;
      sock.destroy();
    }, 30_000);
    sock.on('error', () => undefined);
    sock.on('data', () => undefined);
    sock.once('close', () => {
      clearInterval(drip);
      clearTimeout(giveUp);
      resolve(stuck);
    });
  });
}

describe(`${SLOW_CLIENTS} slow clients against a cap of ${LIMITS.maxConnections}`, () => {
  let ts: TestServer;
  let ro: PlainServer;
  let roBase: string;
  before(async () => {
    ts = await startTestServer(kubelet, { limits: LIMITS });
    ro = createReadOnlyServer(kubelet, nullLogger, undefined, LIMITS);
    roBase = `http://127.0.0.1:${await ro.listen(0, '127.0.0.1')}`;
  });
  after(async () => {
    await ro.close(10);
    await ts.close();
  });

  for (const server of ['kubelet (TLS)', 'read-only'] as const) {
    it(`${server}: at most the cap at once, the rest refused, every slow client dropped, memory bounded, then a normal client is served`, async () => {
      const secure = server === 'kubelet (TLS)';
      const base = secure ? ts.base : roBase;
      const gauge = connectionGauge(secure ? ts.srv.server : ro.server);
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
      const port = Number(new URL(base).port);
      const outcomes = await Promise.all(Array.from({ length: SLOW_CLIENTS }, (_, i) => slowClient(port, secure, i % 5 === 0 ? 'silent' : i % 5 === 1 ? 'tcp' : 'partial')));
      clearInterval(sampler);
      const refused = gauge.refused();
      const stuck = outcomes.filter((o) => o).length;
      const growth = (rssPeak - rssBefore) / MiB;
      process.stdout.write(`${server}: ${SLOW_CLIENTS} slow clients, cap ${LIMITS.maxConnections}: max held ${gauge.max()}, refused ${refused}, stuck ${stuck}, RSS growth ${growth.toFixed(1)} MiB\n`);
      assert.ok(gauge.max() <= LIMITS.maxConnections, `held ${gauge.max()} connections at once`);
      assert.ok(refused > 0, 'connections beyond the cap are refused');
      assert.equal(stuck, 0, 'every slow client is dropped by the server');
      assert.ok(growth < 100, `RSS grew by ${growth.toFixed(1)} MiB`);
      const r = await doRequest(`${base}/pods`, secure ? ts.consoleTls : {});
      assert.equal(r.status, 200);
    });
  }
});

describe('streams outlive the header and idle timeouts', () => {
  const tiny: HttpLimits = { maxConnections: 50, headerTimeoutMs: 200, idleTimeoutMs: 200 };
  let ts: TestServer;
  let echo: Server;
  before(async () => {
    // The runtime's streaming server stand-in: switches protocols and echoes.
    echo = createServer();
    echo.on('upgrade', (_req, socket: Socket) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
      socket.pipe(socket);
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/pf`;
    const cri = { exec: async () => ({ ok: true as const, url }), attach: async () => ({ ok: true as const, url }), portForward: async () => ({ ok: true as const, url }), sandboxOf: async () => 'sb', close: () => undefined };
    ts = await startTestServer(kubelet, { limits: tiny, cri });
  });
  after(async () => {
    echo.closeAllConnections();
    echo.close();
    await ts.close();
  });
  const quiet = () => sleep(5 * (tiny.headerTimeoutMs + tiny.idleTimeoutMs));

  it('an idle keep-alive connection is closed after the idle timeout (a streaming one is not: below)', async () => {
    const sock = tlsConnect({ port: ts.port, host: '127.0.0.1', ...ts.consoleTls });
    let answer = '';
    sock.on('data', (d: Buffer) => (answer += d.toString()));
    const closed = new Promise<boolean>((resolve) => {
      sock.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 10_000).unref();
    });
    sock.once('secureConnect', () => sock.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'));
    const wasClosed = await closed;
    sock.destroy();
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.equal(wasClosed, true, 'closed by the server');
  });

  it('log follow: quiet for 2 s, then the next line still arrives', async () => {
    kubelet.logs.set('default/web/main', 'first\n');
    const { res, destroy } = await openStream(`${ts.base}/containerLogs/default/web/main?follow=true`, ts.consoleTls);
    res.setEncoding('utf8');
    const chunks: string[] = [];
    res.on('data', (c: string) => chunks.push(c));
    await quiet();
    kubelet.pushLog('default/web/main', 'second\n');
    for (let i = 0; i < 200 && !chunks.join('').includes('second'); i++) await sleep(10);
    destroy();
    assert.equal(chunks.join(''), 'first\nsecond\n');
  });

  it('tRPC SSE subscription: an event published after 2 s arrives', async () => {
    const got: unknown[] = [];
    const sub = trpcTestClient(ts.base, ts.consoleTls).lifecycle.onEvent.subscribe({}, { onData: (e) => got.push(e) });
    await quiet();
    kubelet.events.publish({ type: 'runtime', ready: true, message: 'late' });
    for (let i = 0; i < 200 && got.length === 0; i++) await sleep(10);
    sub.unsubscribe();
    assert.equal(got.length, 1);
  });

  it('port-forward upgrade: quiet for 2 s, then bytes still go through', async () => {
    const socket = await new Promise<import('node:stream').Duplex>((resolve, reject) => {
      const headers = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' };
      const req = httpsRequest(`${ts.base}/portForward/default/web`, { headers, ...ts.consoleTls, agent: false });
      req.on('upgrade', (_res, s) => resolve(s));
      req.on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
    await quiet();
    const back = new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
    socket.write('ping');
    const got = await back;
    socket.destroy();
    assert.equal(got, 'ping');
  });

  it('socket.io websocket: still connected after 2 s and receives an event', async () => {
    const c = ioConnect(ts.base, { path: '/socket.io', transports: ['websocket'], reconnection: false, ...ts.consoleTls });
    await new Promise<void>((resolve, reject) => {
      c.once('nodelet:hello', () => resolve());
      c.once('connect_error', reject);
    });
    await quiet();
    const next = new Promise<NodeletEvent>((resolve) => c.once('nodelet:event', resolve));
    kubelet.events.publish({ type: 'runtime', ready: true, message: 'late' });
    const e = await next;
    const connected = c.connected;
    c.disconnect();
    assert.equal(connected, true);
    assert.equal(e.type, 'runtime');
  });
});
