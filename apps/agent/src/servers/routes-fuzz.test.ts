/**
 * Property tests (fast-check) of the HTTP routes of 10250 (with the console certificate and without one),
 * 10255 and 10248: random paths built from the kubelet's route prefixes and hostile segments (`..`, `%2e%2e`,
 * `%2f`, malformed escapes, unicode, very long), random query parameters, random headers (sometimes an upgrade)
 * and methods. Never a 5xx, never a stack trace or a host path in a body, and the servers stay up.
 */
import assert from 'node:assert/strict';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { nullLogger } from '@nodelet/core/util';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import { FakeStats } from '../testing/fake-stats.ts';
import type { TlsClientOptions } from '../testing/https-client.ts';
import { createTestPki, type TestPki } from '../testing/test-pki.ts';
import { createAuthorizer } from './auth.ts';
import { createKubeletServer } from './kubelet-server.ts';
import { createHealthzServer, createReadOnlyServer } from './readonly-server.ts';
import type { CriStreams } from './routes/cri-streams.ts';

const RUNS = 150;
const LEAKS = /\n\s+at |"stack"|\/work\/|\/root\/|\/var\/lib\/|node_modules/;

const kubelet = new FakeKubelet();
kubelet.pods = [fakePod('default', 'web', ['main'])];
kubelet.logs.set('default/web/main', 'hello\n');
Object.assign(kubelet, { stats: new FakeStats() });
const noStreams: CriStreams = {
  exec: async () => ({ ok: false, status: 404, reason: 'no such container' }),
  attach: async () => ({ ok: false, status: 404, reason: 'no such container' }),
  portForward: async () => ({ ok: false, status: 404, reason: 'no such sandbox' }),
  sandboxOf: async () => undefined,
  close: () => undefined,
};

interface Target {
  name: string;
  base: string;
  tls: TlsClientOptions;
  agent: HttpAgent;
}

const PREFIXES = ['', '/pods', '/runningpods', '/containerLogs', '/exec', '/attach', '/portForward', '/stats', '/stats/summary', '/metrics', '/metrics/cadvisor', '/metrics/probes', '/api/v1.3', '/api/v2.0/stats', '/api/v2.0/ps', '/healthz', '/trpc', '/trpc/pods.list', '/socket.io', '/logs', '/default/web/main'];
const NAMES = ['default', 'web', 'main', 'kube-system', 'summary', 'kubepods', 'podu', 'c1', 'pods.list', 'node.get', 'ping'];
const TRAVERSAL = ['..', '.', '%2e%2e', '%2E%2e', '%2f', '%2F..%2F', '%5C..%5C', '%00', '%F0%9F%98%80', '', '~', '*', ':', ';x=y'];
const MALFORMED = ['%zz', '%', '%E0%A4%A', '%C0%AE', '%FF', '%e'];
const QUERY_KEYS = ['follow', 'tailLines', 'limitBytes', 'sinceTime', 'sinceSeconds', 'timestamps', 'previous', 'count', 'recursive', 'only_cpu_and_memory', 'command', 'stdin', 'tty', 'input', 'batch', 'verbose', 'exclude', 'EIO', 'transport', 'sid'];

/** A string safe in a request line: percent-encoded, or raw ASCII/latin1 bytes without space, '#' and '?'. */
const segment = fc.oneof(
  { arbitrary: fc.constantFrom(...NAMES), weight: 8 },
  { arbitrary: fc.constantFrom(...TRAVERSAL), weight: 3 },
  { arbitrary: fc.constantFrom(...MALFORMED), weight: 1 },
  { arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }).map(encodeURIComponent), weight: 1 },
  { arbitrary: fc.string({ unit: fc.integer({ min: 0x21, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }).map((s) => s.replace(/[#?]/g, '')), weight: 1 },
  { arbitrary: fc.integer({ min: 1000, max: 8000 }).map((n) => 'a'.repeat(n)), weight: 1 },
);
const path = fc.tuple(fc.constantFrom(...PREFIXES), fc.array(segment, { maxLength: 4 }), fc.boolean()).map(([p, segs, slash]) => `${p}/${segs.join('/')}${slash ? '/' : ''}`);
const queryValue = fc.oneof(fc.constantFrom('true', 'false', '1', '-1', '0', 'abc', '%zz', '%E0%A4%A', '1e309', '2026-01-01T00:00:00Z', '[]', '{}'), fc.string({ maxLength: 30 }).map(encodeURIComponent));
const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 }).map(encodeURIComponent)), queryValue), { maxLength: 5 }).map((kv) => (kv.length ? `?${kv.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/);
const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 200 }).map((s) => s.trim());
const headers = fc.record({
  extra: fc.dictionary(token.filter((t) => !/^(host|content-length|transfer-encoding|connection|upgrade|expect|te|trailer)$/i.test(t)), headerValue, { maxKeys: 4 }),
  authorization: fc.option(fc.oneof(headerValue, headerValue.map((v) => `Bearer ${v}`)), { nil: undefined }),
  upgrade: fc.option(fc.constantFrom('websocket', 'SPDY/3.1', 'h2c', 'x'), { nil: undefined }),
});
const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH');

interface Answer {
  status: number;
  body: string;
}

function send(t: Target, m: string, target: string, h: { extra: Record<string, string>; authorization?: string; upgrade?: string }): Promise<Answer> {
  const hs: Record<string, string> = { ...h.extra };
  if (h.authorization !== undefined) hs['Authorization'] = h.authorization;
  if (h.upgrade !== undefined) Object.assign(hs, { Connection: 'Upgrade', Upgrade: h.upgrade, 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13' });
  return new Promise((resolve, reject) => {
    const u = new URL(t.base);
    const opts = { host: u.hostname, port: u.port, path: target, method: m, headers: hs, ...t.tls, agent: h.upgrade ? false : t.agent };
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(opts, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => (body += c.length + body.length > 65536 ? '' : c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve({ status: 101, body: '' });
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${m} ${target}`)));
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP routes under random requests', () => {
  let tp: TestPki;
  const targets: Target[] = [];
  const closers: Array<() => Promise<void>> = [];
  before(async () => {
    tp = createTestPki();
    const kube = createKubeletServer({
      kubelet, logger: nullLogger, authorizer: createAuthorizer('AlwaysAllow'), nodeName: 'fake-node', anonymousAuth: false, cri: noStreams,
      tls: { cert: tp.pki.serving.certPem, key: tp.pki.serving.keyPem, clientCAs: [tp.pki.ca.certPem] },
    });
    const kubePort = await kube.listen(0, '127.0.0.1');
    closers.push(async () => {
      await kube.closeStreams();
      await kube.close(10);
    });
    const consoleTls = { ca: tp.pki.ca.certPem, cert: tp.pki.console.certPem, key: tp.pki.console.keyPem };
    targets.push({ name: '10250 console cert', base: `https://127.0.0.1:${kubePort}`, tls: consoleTls, agent: new HttpsAgent({ keepAlive: true, ...consoleTls }) });
    targets.push({ name: '10250 no cert', base: `https://127.0.0.1:${kubePort}`, tls: { ca: tp.pki.ca.certPem }, agent: new HttpsAgent({ keepAlive: true, ca: tp.pki.ca.certPem }) });
    for (const [name, make] of [['10255', createReadOnlyServer], ['10248', createHealthzServer]] as const) {
      const s = make(kubelet, nullLogger);
      const port = await s.listen(0, '127.0.0.1');
      closers.push(() => s.close(10));
      targets.push({ name, base: `http://127.0.0.1:${port}`, tls: {}, agent: new HttpAgent({ keepAlive: true }) });
    }
  });
  after(async () => {
    for (const t of targets) t.agent.destroy();
    for (const c of closers) await c();
    tp.cleanup();
  });

  for (const name of ['10250 console cert', '10250 no cert', '10255', '10248']) {
    it(`${name}: no 5xx, no stack or host path, still up`, async () => {
      const t = targets.find((x) => x.name === name)!;
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(method, path, query, headers, async (m, p, q, h) => {
          const a = await send(t, m, `${p}${q}`, h);
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          assert.ok(a.status < 500, `${m} ${p}${q} → ${a.status}: ${a.body.slice(0, 300)}`);
          assert.doesNotMatch(a.body, LEAKS, `${m} ${p}${q} leaked: ${a.body.slice(0, 300)}`);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
      process.stdout.write(`${name}: ${RUNS} runs, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}\n`);
      const ok = await send(t, 'GET', '/healthz', { extra: {} });
      assert.equal(ok.status, name === '10250 no cert' ? 401 : 200);
    });
  }
});
