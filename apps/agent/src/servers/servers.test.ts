import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nullLogger } from '@nodelet/core/util';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import { doRequest, openStream, type TlsClientOptions } from '../testing/https-client.ts';
import { createTestPki, type TestPki } from '../testing/test-pki.ts';
import { createAuthorizer, type Authorizer } from './auth.ts';
import { createKubeletServer, type KubeletServer } from './kubelet-server.ts';
import { createHealthzServer, createReadOnlyServer, type PlainServer } from './readonly-server.ts';

let tp: TestPki;
const kubelet = new FakeKubelet();
kubelet.pods = [fakePod('default', 'web', ['nginx', 'sidecar']), fakePod('kube-system', 'dns')];
kubelet.runningPods = [fakePod('default', 'web')];
kubelet.logs.set('default/web/nginx', 'line1\nline2\nline3\n');

const started: Array<{ close(g?: number): Promise<void> }> = [];
before(() => {
  tp = createTestPki();
});
after(async () => {
  for (const s of started) await s.close(10);
  tp.cleanup();
});

async function kubeletServer(
  anonymousAuth: boolean,
  authorizer: Authorizer = createAuthorizer('AlwaysAllow'),
  extraCAs: string[] = [],
  configz?: () => unknown,
): Promise<{ base: string; srv: KubeletServer }> {
  const srv = createKubeletServer({
    kubelet,
    logger: nullLogger,
    authorizer,
    nodeName: 'fake-node',
    anonymousAuth,
    tls: { cert: tp.pki.serving.certPem, key: tp.pki.serving.keyPem, clientCAs: [tp.pki.ca.certPem, ...extraCAs] },
    ...(configz ? { configz } : {}),
  });
  const port = await srv.listen(0, '127.0.0.1');
  started.push(srv);
  return { base: `https://127.0.0.1:${port}`, srv };
}

async function plain(make: () => PlainServer): Promise<string> {
  const s = make();
  const port = await s.listen(0, '127.0.0.1');
  started.push(s);
  return `http://127.0.0.1:${port}`;
}

describe('read-only server', () => {
  let base: string;
  before(async () => {
    base = await plain(() => createReadOnlyServer(kubelet, nullLogger));
  });
  it('GET /pods is a v1 PodList', async () => {
    const r = await doRequest(`${base}/pods`);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /application\/json/);
    const list = JSON.parse(r.body);
    assert.equal(list.kind, 'PodList');
    assert.equal(list.apiVersion, 'v1');
    assert.deepEqual(list.items.map((p: { metadata: { name: string } }) => p.metadata.name), ['web', 'dns']);
  });
  const table: Array<[string, string, number]> = [
    ['POST', '/pods', 405], ['DELETE', '/pods', 405], ['PUT', '/healthz', 405],
    ['GET', '/runningpods/', 404], ['GET', '/configz', 404], ['GET', '/containerLogs/default/web/nginx', 404], ['GET', '/trpc/pods.list', 404], ['GET', '/', 404],
    ['GET', '/healthz', 200],
  ];
  for (const [method, path, status] of table) {
    it(`${method} ${path} → ${status}`, async () => {
      assert.equal((await doRequest(`${base}${path}`, {}, method)).status, status);
    });
  }
});

describe('healthz', () => {
  let base: string;
  before(async () => {
    base = await plain(() => createHealthzServer(kubelet, nullLogger));
  });
  it('ok while every check passes; ?verbose lists them', async () => {
    kubelet.health = { ok: true, checks: [{ name: 'ping', ok: true }, { name: 'pleg', ok: true }] };
    assert.deepEqual(await pick(`${base}/healthz`), [200, 'ok']);
    assert.deepEqual(await pick(`${base}/healthz?verbose`), [200, '[+]ping ok\n[+]pleg ok\nhealthz check passed\n']);
  });
  it('500 listing the failed check, reason withheld', async () => {
    kubelet.health = { ok: false, checks: [{ name: 'ping', ok: true }, { name: 'pleg', ok: false, message: 'pleg was last seen active 4m0s ago' }] };
    assert.deepEqual(await pick(`${base}/healthz`), [500, '[+]ping ok\n[-]pleg failed: reason withheld\nhealthz check failed\n']);
    assert.deepEqual(await pick(`${base}/healthz?exclude=pleg`), [200, 'ok']);
    assert.deepEqual(await pick(`${base}/healthz/ping`), [200, 'ok']);
    assert.equal((await doRequest(`${base}/healthz/pleg`)).status, 500);
    assert.equal((await doRequest(`${base}/pods`)).status, 404);
    kubelet.health = { ok: true, checks: [{ name: 'ping', ok: true }] };
  });
  it('an informational check (ok with a message) is shown with ?verbose and does not fail healthz', async () => {
    kubelet.health = { ok: true, checks: [{ name: 'ping', ok: true }, { name: 'apiserver', ok: true, message: 'degraded' }] };
    assert.deepEqual(await pick(`${base}/healthz`), [200, 'ok']);
    assert.deepEqual(await pick(`${base}/healthz?verbose`), [200, '[+]ping ok\n[+]apiserver ok (degraded)\nhealthz check passed\n']);
    kubelet.health = { ok: true, checks: [{ name: 'ping', ok: true }] };
  });
});

async function pick(url: string, tls?: TlsClientOptions): Promise<[number, string]> {
  const r = await doRequest(url, tls);
  return [r.status, r.body];
}

describe('kubelet server authentication and authorization', () => {
  let consoleTls: TlsClientOptions;
  before(() => {
    consoleTls = { ca: tp.pki.ca.certPem, cert: tp.pki.console.certPem, key: tp.pki.console.keyPem };
  });
  it('401 without a client certificate', async () => {
    const { base } = await kubeletServer(false);
    assert.deepEqual(await pick(`${base}/pods`, { ca: tp.pki.ca.certPem }), [401, 'Unauthorized\n']);
    assert.equal((await doRequest(`${base}/healthz`, { ca: tp.pki.ca.certPem })).status, 401);
  });
  it('401 with a certificate from another CA', async () => {
    const { base } = await kubeletServer(false);
    const r = await doRequest(`${base}/pods`, { ca: tp.pki.ca.certPem, cert: tp.foreign.console.certPem, key: tp.foreign.console.keyPem });
    assert.equal(r.status, 401);
  });
  it('a certificate from a CA given by --client-ca-file is accepted', async () => {
    const { base } = await kubeletServer(false, undefined, [tp.foreign.ca.certPem]);
    const r = await doRequest(`${base}/pods`, { ca: tp.pki.ca.certPem, cert: tp.foreign.console.certPem, key: tp.foreign.console.keyPem });
    assert.equal(r.status, 200);
  });
  it('200 with the console certificate', async () => {
    const { base } = await kubeletServer(false);
    const r = await doRequest(`${base}/pods`, consoleTls);
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.body).kind, 'PodList');
    const running = JSON.parse((await doRequest(`${base}/runningpods/`, consoleTls)).body);
    assert.deepEqual(running.items.map((p: { metadata: { name: string } }) => p.metadata.name), ['web']);
    assert.equal((await doRequest(`${base}/nope`, consoleTls)).status, 404);
    assert.equal((await doRequest(`${base}/pods`, consoleTls, 'POST')).status, 405);
  });
  it('/configz: the running configuration as {"kubeletconfig": ...}, GET only, authorized as nodes/proxy', async () => {
    const { base } = await kubeletServer(false, undefined, [], () => ({ kubeletconfig: { syncFrequency: '1m0s' } }));
    const r = await doRequest(`${base}/configz`, consoleTls);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /application\/json/);
    assert.deepEqual(JSON.parse(r.body), { kubeletconfig: { syncFrequency: '1m0s' } });
    assert.equal((await doRequest(`${base}/configz`, consoleTls, 'POST')).status, 405);
    const denied = await kubeletServer(true, createAuthorizer('Webhook'), [], () => ({}));
    assert.deepEqual(await pick(`${denied.base}/configz`, { ca: tp.pki.ca.certPem }), [
      403,
      'Forbidden (user=system:anonymous, verb=get, resource=nodes, subresource(s)=[proxy])\n',
    ]);
  });
  it('anonymous-auth=true with AlwaysAllow → 200 as system:anonymous', async () => {
    const { base } = await kubeletServer(true);
    assert.equal((await doRequest(`${base}/pods`, { ca: tp.pki.ca.certPem })).status, 200);
  });
  it('403 in the kubelet format when the authorizer denies', async () => {
    const { base } = await kubeletServer(true, createAuthorizer('Webhook'));
    assert.deepEqual(await pick(`${base}/pods`, { ca: tp.pki.ca.certPem }), [
      403,
      'Forbidden (user=system:anonymous, verb=get, resource=nodes, subresource(s)=[proxy])\n',
    ]);
    const r = await doRequest(`${base}/pods`, consoleTls, 'POST');
    assert.equal(r.body, 'Forbidden (user=system:nodelet-console, verb=create, resource=nodes, subresource(s)=[proxy])\n');
  });
});

describe('/containerLogs', () => {
  let base: string;
  let tls: TlsClientOptions;
  before(async () => {
    base = (await kubeletServer(false)).base;
    tls = { ca: tp.pki.ca.certPem, cert: tp.pki.console.certPem, key: tp.pki.console.keyPem };
  });
  it('returns the log and maps query parameters', async () => {
    const before = kubelet.logCalls.length;
    const r = await doRequest(`${base}/containerLogs/default/web/nginx?tailLines=2&timestamps=true&previous=false&limitBytes=100&sinceSeconds=60`, tls);
    assert.equal(r.status, 200);
    assert.equal(r.body, 'line2\nline3\n');
    assert.deepEqual(kubelet.logCalls[before]?.opts, { tailLines: 2, timestamps: true, previous: false, limitBytes: 100, sinceSeconds: 60 });
  });
  const errors: Array<[string, number, RegExp]> = [
    ['/containerLogs/default/ghost/nginx', 404, /pod "ghost" of namespace "default" not found/],
    ['/containerLogs/default/web/ghost', 404, /container "ghost" not found in pod "web"/],
    ['/containerLogs/default/web/nginx?tailLines=-1', 400, /tailLines: Invalid value: -1/],
    ['/containerLogs/default/web/nginx?tailLines=abc', 400, /tailLines/],
    ['/containerLogs/default/web/nginx?follow=maybe', 400, /follow/],
    ['/containerLogs/default/web/nginx?limitBytes=0', 400, /limitBytes/],
    ['/containerLogs/default/web/nginx?sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z', 400, /at most one/],
    ['/containerLogs/default/web/nginx?sinceTime=yesterday', 400, /sinceTime/],
    ['/containerLogs/default/web', 400, /path must be/],
  ];
  for (const [path, status, body] of errors) {
    it(`${path} → ${status}`, async () => {
      const r = await doRequest(`${base}${path}`, tls);
      assert.equal(r.status, status);
      assert.match(r.body, body);
    });
  }
  it('follow streams chunks until the client disconnects', async () => {
    const key = 'default/web/sidecar';
    kubelet.logs.set(key, 'first\n');
    const { res, destroy } = await openStream(`${base}/containerLogs/default/web/sidecar?follow=true`, tls);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    res.setEncoding('utf8');
    const chunks: string[] = [];
    const got = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (chunks.length >= n ? resolve() : res.once('data', (c: string) => (chunks.push(c), check())));
        check();
      });
    await got(1);
    kubelet.pushLog(key, 'second\n');
    await got(2);
    assert.deepEqual(chunks, ['first\n', 'second\n']);
    assert.equal(kubelet.followerCount(key), 1);
    destroy();
    for (let i = 0; i < 500 && kubelet.followerCount(key) > 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(kubelet.followerCount(key), 0, 'the follow ends when the client goes away');
  });
});
