/**
 * Connection limits against 500 slow clients (slowloris: connect, send part of a header, dribble; or connect and
 * stay silent) on a real kubelet server (TLS) and a real read-only server, port 0, with a cap of 100 connections
 * and a 5 s header timeout: the servers never hold more than the cap, refuse the rest, drop every slow client,
 * answer a normal client afterwards, and the process's RSS grows by less than 100 MiB (a resource bound).
 * Also: 500 clients that each send 960 KiB of an unfinished header at once are cut off at the 64 KiB header cap.
 * The timeouts against streams: stream-timeouts.test.ts.
 */
import assert from 'node:assert/strict';
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { nullLogger } from '@nodelet/core/util';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import { doRequest } from '../testing/https-client.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import type { HttpLimits } from './limits.ts';
import { createReadOnlyServer, type PlainServer } from './readonly-server.ts';

const SLOW_CLIENTS = 500;
// The header timeout is long enough for the cap to fill even on a loaded machine (TLS handshakes are slow then).
const LIMITS: HttpLimits = { maxConnections: 100, headerTimeoutMs: 5000, idleTimeoutMs: 1000 };
const MiB = 1024 * 1024;

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
      // A socket the server dropped within these 20 ms is closed already: an interval made now would never stop.
      if (mode !== 'partial' || sock.destroyed) return;
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

describe(`${SLOW_CLIENTS} clients sending 960 KiB of header fast and holding it, default limits`, () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer(kubelet);
  });
  after(() => ts.close());

  it('kubelet (TLS): each is cut off at the header cap (64 KiB), RSS grows by less than 100 MiB', async () => {
    const line = `X-Big: ${'a'.repeat(1000)}\r\n`.repeat(64);
    const statuses = new Map<string, number>();
    let stuck = 0;
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
    await Promise.all(Array.from({ length: SLOW_CLIENTS }, () => new Promise<void>((resolve) => {
      const sock = tlsConnect({ port: ts.port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
        sock.write('GET /pods HTTP/1.1\r\nHost: x\r\n');
        let sent = 0;
        const pump = (): void => {
          while (sent < 15 * line.length && sock.writable) {
            sent += line.length;
            if (!sock.write(line)) return void sock.once('drain', pump);
          }
        };
        pump();
      });
      sock.once('data', (d: Buffer) => {
        const status = d.toString('latin1').split(' ')[1] ?? '?';
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      });
      sock.on('error', () => undefined);
      sock.once('close', () => resolve());
      const giveUp = setTimeout(() => (stuck++, sock.destroy()), 60_000);
      sock.once('close', () => clearTimeout(giveUp));
    })));
    clearInterval(sampler);
    const growth = (rssPeak - rssBefore) / MiB;
    // The 431 often never reaches a client that is still writing (the server resets the connection).
    process.stdout.write(`kubelet (TLS): ${SLOW_CLIENTS} clients x 960 KiB header: answers ${JSON.stringify(Object.fromEntries(statuses))}, stuck ${stuck}, RSS growth ${growth.toFixed(1)} MiB\n`);
    assert.equal(stuck, 0);
    assert.ok(growth < 100, `RSS grew by ${growth.toFixed(1)} MiB`);
    assert.equal((await doRequest(`${ts.base}/pods`, ts.consoleTls)).status, 200);
  });
});
