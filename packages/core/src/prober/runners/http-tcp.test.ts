import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { FakeClock, realClock } from '../../util/clock.ts';
import type { HttpProbeRequest, RunOutcome } from '../types.ts';
import { createHttpRunner } from './http-runner.ts';
import { createTcpRunner } from './tcp-runner.ts';

let server: http.Server;
let port = 0;
let closedPort = 0;
const seen: Array<{ url: string; headers: http.IncomingHttpHeaders }> = [];
let hung: Array<() => void> = [];
let onHung: (() => void) | undefined;

before(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const url = req.url ?? '';
    if (url === '/ok') return void res.end('ok');
    if (url === '/fail') return void res.writeHead(500).end('boom');
    if (url === '/same') return void res.writeHead(302, { location: '/ok' }).end();
    if (url === '/away') return void res.writeHead(302, { location: `http://localhost:${port}/ok` }).end('moved');
    if (url === '/loop') return void res.writeHead(301, { location: '/loop' }).end();
    if (url === '/hang') {
      hung.push(() => res.end());
      onHung?.();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  const tmp = net.createServer();
  await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r));
  closedPort = (tmp.address() as AddressInfo).port;
  await new Promise<void>((r) => tmp.close(() => r()));
});

after(async () => {
  for (const h of hung) h();
  hung = [];
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const req = (path: string, extra: Partial<HttpProbeRequest> = {}): HttpProbeRequest => ({
  scheme: 'http',
  host: '127.0.0.1',
  port,
  path,
  headers: [],
  timeoutS: 5,
  ...extra,
});

const httpCases: Array<{ name: string; req: () => HttpProbeRequest; expect: () => RunOutcome; hits?: number }> = [
  { name: '200 succeeds with the body', req: () => req('/ok'), expect: () => ({ status: 'success', output: 'ok', httpStatus: 200 }), hits: 1 },
  {
    name: '500 fails with the status code',
    req: () => req('/fail'),
    expect: () => ({ status: 'failure', output: 'HTTP probe failed with statuscode: 500', httpStatus: 500 }),
    hits: 1,
  },
  { name: 'a same-host redirect is followed', req: () => req('/same'), expect: () => ({ status: 'success', output: 'ok', httpStatus: 200 }), hits: 2 },
  {
    name: 'a redirect to another host is a success with a warning',
    req: () => req('/away'),
    expect: () => ({ status: 'warning', output: 'Probe terminated redirects, Response body: moved', httpStatus: 302 }),
    hits: 1,
  },
  {
    name: 'redirects stop after 10',
    req: () => req('/loop'),
    expect: () => ({ status: 'failure', output: `Get "http://127.0.0.1:${port}/loop": stopped after 10 redirects` }),
    hits: 10,
  },
  {
    name: 'a closed port fails with the connection error',
    req: () => req('/', { port: closedPort }),
    expect: () => ({
      status: 'failure',
      output: `Get "http://127.0.0.1:${closedPort}/": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`,
    }),
    hits: 0,
  },
];

for (const tc of httpCases) {
  test(`http runner: ${tc.name}`, async () => {
    seen.length = 0;
    const run = createHttpRunner({ clock: realClock, kubeletVersion: '1.34' });
    assert.deepEqual(await run(tc.req()), tc.expect());
    assert.equal(seen.length, tc.hits);
  });
}

test('http runner: kubelet headers, custom headers, Host override, empty Accept removed', async () => {
  seen.length = 0;
  const run = createHttpRunner({ clock: realClock, kubeletVersion: '1.34' });
  await run(req('/ok', { headers: [{ name: 'X-Custom', value: 'a' }, { name: 'Host', value: 'example.test' }] }));
  await run(req('/ok', { headers: [{ name: 'Accept', value: '' }, { name: 'User-Agent', value: 'mine' }], purpose: 'lifecycle' }));
  await run(req('/ok', { purpose: 'lifecycle' }));
  const [a, b, c] = seen.map((s) => s.headers);
  assert.equal(a?.['user-agent'], 'kube-probe/1.34');
  assert.equal(a?.accept, '*/*');
  assert.equal(a?.['x-custom'], 'a');
  assert.equal(a?.host, 'example.test');
  assert.equal(b?.accept, undefined);
  assert.equal(b?.['user-agent'], 'mine');
  assert.equal(c?.['user-agent'], 'kube-lifecycle/1.34');
});

test('http runner: a hung server fails at timeoutSeconds on the injected clock', async () => {
  const clock = new FakeClock();
  const run = createHttpRunner({ clock });
  const arrived = new Promise<void>((r) => (onHung = r));
  const p = run(req('/hang', { timeoutS: 2 }));
  await arrived;
  await clock.step(1999);
  let done = false;
  void p.then(() => (done = true));
  await new Promise<void>((r) => setImmediate(r));
  assert.equal(done, false);
  await clock.step(1);
  assert.deepEqual(await p, {
    status: 'failure',
    output: `Get "http://127.0.0.1:${port}/hang": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
  });
  onHung = undefined;
});

test('tcp runner: open port succeeds, closed port fails with the dial error', async () => {
  const tcp = createTcpRunner(realClock);
  assert.deepEqual(await tcp('127.0.0.1', port, 1), { status: 'success', output: '' });
  assert.deepEqual(await tcp('127.0.0.1', closedPort, 1), {
    status: 'failure',
    output: `dial tcp 127.0.0.1:${closedPort}: connect: connection refused`,
  });
});
