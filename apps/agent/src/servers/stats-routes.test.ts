import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nullLogger } from '@nodelet/core/util';
import { FakeKubelet } from '../testing/fake-kubelet.ts';
import { FakeStats } from '../testing/fake-stats.ts';
import { doRequest, type TlsClientOptions } from '../testing/https-client.ts';
import { createTestPki, type TestPki } from '../testing/test-pki.ts';
import { containerTree } from '../trpc/stats-router.ts';
import type { Authorizer } from './auth.ts';
import { createKubeletServer } from './kubelet-server.ts';
import { createReadOnlyServer } from './readonly-server.ts';

const kubelet = new FakeKubelet();
Object.assign(kubelet, { stats: new FakeStats() });
let tp: TestPki;
let ro = '';
let secure = '';
let tls: TlsClientOptions = {};
const closers: Array<() => Promise<void>> = [];
const denyStats: Authorizer = { authorize: (a) => (a.subresource === 'stats' ? { allowed: false, reason: 'no' } : { allowed: true }) };

before(async () => {
  tp = createTestPki();
  tls = { ca: tp.pki.ca.certPem, cert: tp.pki.console.certPem, key: tp.pki.console.keyPem };
  const r = createReadOnlyServer(kubelet, nullLogger);
  ro = `http://127.0.0.1:${await r.listen(0, '127.0.0.1')}`;
  const k = createKubeletServer({ kubelet, logger: nullLogger, authorizer: denyStats, nodeName: 'n', anonymousAuth: false, tls: { cert: tp.pki.serving.certPem, key: tp.pki.serving.keyPem, clientCAs: [tp.pki.ca.certPem] } });
  secure = `https://127.0.0.1:${await k.listen(0, '127.0.0.1')}`;
  closers.push(() => r.close(10), () => k.close(10));
});
after(async () => {
  for (const c of closers) await c();
  tp.cleanup();
});

describe('stats and metrics routes', () => {
  const table: [string, string, number, RegExp][] = [
    ['GET', '/stats/summary', 200, /"nodeName":"full"/],
    ['GET', '/stats/summary?only_cpu_and_memory=true', 200, /"nodeName":"only"/],
    ['GET', '/stats/summary?only_cpu_and_memory=yes', 400, /invalid only_cpu_and_memory/],
    ['GET', '/metrics', 200, /^# kubelet/],
    ['GET', '/metrics/cadvisor', 200, /^# cadvisor/],
    ['GET', '/metrics/resource', 200, /^# resource/],
    ['POST', '/metrics', 405, /Method Not Allowed/],
    ['GET', '/api/v1.3/machine', 404, /404 page not found/],
  ];
  for (const [method, path, status, body] of table) {
    it(`read-only ${method} ${path} → ${status}`, async () => {
      const r = await doRequest(`${ro}${path}`, {}, method);
      assert.equal(r.status, status);
      assert.match(r.body, body);
    });
  }

  it('/metrics/cadvisor is gzipped when Accept-Encoding names gzip, as promhttp decides', async () => {
    const cases: [string | undefined, boolean][] = [[undefined, false], ['gzip', true], ['deflate, gzip;q=1.0, *;q=0.5', true], ['identity', false], ['x-gzip', false], ['gzipper', false]];
    for (const [accept, gzipped] of cases) {
      const r = await doRequest(`${ro}/metrics/cadvisor`, {}, 'GET', undefined, accept === undefined ? {} : { 'Accept-Encoding': accept });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-encoding'], gzipped ? 'gzip' : undefined, String(accept));
      assert.equal(r.body, gzipped ? 'gz:# cadvisor page\n' : '# cadvisor page\n');
      assert.equal(r.headers['content-length'], String(r.body.length));
      assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    }
  });

  it('10250 authorizes /stats/* as the stats subresource and /metrics* as metrics', async () => {
    const denied = await doRequest(`${secure}/stats/summary`, tls);
    assert.equal(denied.status, 403);
    assert.match(denied.body, /subresource\(s\)=\[stats\]/);
    assert.equal((await doRequest(`${secure}/metrics/cadvisor`, tls)).status, 200);
    assert.equal((await doRequest(`${secure}/metrics`, { ca: tls.ca })).status, 401);
  });

  it('serves the cAdvisor REST API shapes', async () => {
    const get = async (p: string) => {
      const r = await doRequest(`${secure}${p}`, tls);
      assert.equal(r.status, 200, `${p}: ${r.body}`);
      return JSON.parse(r.body);
    };
    assert.equal((await get('/api/v1.3/machine')).num_cores, 2);
    const spec = await get('/api/v2.0/spec/kubepods?recursive=true');
    assert.deepEqual(Object.keys(spec), ['/kubepods', '/kubepods/podu', '/kubepods/podu/c1']);
    assert.equal(spec['/kubepods/podu/c1'].cpu.limit, 102);
    assert.equal(spec['/kubepods/podu/c1'].memory.limit, 1000);
    const stats = await get('/api/v2.0/stats/kubepods/podu/c1?count=1');
    assert.equal(stats['/kubepods/podu/c1'].length, 1);
    assert.equal(stats['/kubepods/podu/c1'][0].cpu_inst.usage.total, 5e8);
    const v1 = await get('/api/v1.3/containers/kubepods/podu');
    assert.deepEqual(v1.subcontainers, [{ name: '/kubepods/podu/c1' }]);
    assert.equal(v1.stats.length, 2);
    assert.equal((await get('/api/v2.0/ps/kubepods/podu/c1'))[0].cmd, 'sleep 1');
  });

  const badInput: [string, number, RegExp][] = [
    ['/api/v1.3/containers/nope', 404, /unknown container "\/nope"/],
    ['/api/v2.0/stats/nope', 404, /unknown container "\/nope"/],
    ['/api/v2.0/ps/kubepods/nope', 404, /unknown container/],
    ['/api/v9.9/machine', 404, /unsupported API version "v9.9"/],
    ['/api/v2.0/events', 404, /unknown v2.0 resource "events"/],
    ['/api/v2.0/stats/kubepods?count=abc', 400, /invalid count "abc"/],
    ['/api/v2.0/stats/kubepods?count=-1', 400, /invalid count/],
    ['/api/v2.0/spec/kubepods?recursive=1', 400, /invalid recursive value/],
    // The URL parser resolves dot segments first: these land on /api/etc and /api/etc/passwd.
    ['/api/v2.0/stats/../../etc', 404, /unsupported API version "etc"/],
    ['/api/v2.0/stats/%2e%2e/%2e%2e/etc/passwd', 404, /unsupported API version "etc"/],
    ['/api/v2.0/stats/kubepods/..%2F..%2Fetc', 400, /invalid character/],
    ['/api/v2.0/ps/..%2f..%2fproc', 400, /invalid character/],
    ['/stats/summary?only_cpu_and_memory=1', 400, /invalid only_cpu_and_memory/],
    ['/stats/nope', 404, /404 page not found/],
    ['/stats/../etc/passwd', 404, /404 page not found/],
  ];
  for (const [path, status, body] of badInput) {
    it(`bad input ${path} → ${status} with a message`, async () => {
      // /stats/* on the read-only port: this suite's 10250 authorizer denies the stats subresource.
      const r = await doRequest(path.startsWith('/stats') ? `${ro}${path}` : `${secure}${path}`, tls);
      assert.equal(r.status, status, r.body);
      assert.match(r.body, body);
    });
  }
});

describe('containerTree', () => {
  it('nests by parent and climbs to the nearest known ancestor', () => {
    const tree = containerTree([
      { key: '/', kind: 'node', labels: {} },
      { key: '/a/b/c', kind: 'container', parent: '/a/b', labels: {} },
      { key: '/a', kind: 'qos', parent: '/', labels: {} },
    ]);
    assert.deepEqual(tree?.children.map((c) => [c.key, c.children.map((x) => x.key)]), [['/a', ['/a/b/c']]]);
    assert.equal(containerTree([]), null);
  });
});
