/**
 * The header and idle timeouts (limits.ts) never cut a stream: with 200 ms timeouts, an idle keep-alive connection
 * is closed, while log follow, a tRPC SSE subscription, a socket.io websocket and a port-forward upgrade proxied to
 * a runtime streaming server (an echo here) stay quiet for 2 s and still carry data afterwards.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { io as ioConnect } from 'socket.io-client';
import type { NodeletEvent } from '@nodelet/core/events';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import { openStream } from '../testing/https-client.ts';
import { startTestServer, trpcTestClient, type TestServer } from '../testing/test-server.ts';
import type { HttpLimits } from './limits.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const kubelet = new FakeKubelet();
kubelet.pods = [fakePod('default', 'web')];

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
    const socket = await new Promise<Duplex>((resolve, reject) => {
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
