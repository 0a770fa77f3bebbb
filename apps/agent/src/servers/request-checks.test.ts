/**
 * Checks before any route runs, on every listener (10250, 10255, 10248): a request path with a malformed percent
 * escape is 400 with a message (Go's server rejects such a request URI with 400 before any kubelet handler), never
 * a 500; a request body beyond the cap is 413 (the kubelet's routes take none; tRPC bodies up to 1 MiB); a path
 * with "." or ".." segments is not served but redirected (301) to its canonical form, as Go's ServeMux does, so
 * that no handler (socket.io matches the raw path) and the authorizer (the canonical one) disagree on it.
 */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { nullLogger } from '@nodelet/core/util';
import { fakePod, FakeKubelet } from '../testing/fake-kubelet.ts';
import { doRequest, rawRequest, upgradeRequest, type TlsClientOptions } from '../testing/https-client.ts';
import type { Authorizer } from './auth.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { MAX_ROUTE_BODY_BYTES, MAX_TRPC_BODY_BYTES } from './limits.ts';
import { createHealthzServer, createReadOnlyServer, type PlainServer } from './readonly-server.ts';

const kubelet = new FakeKubelet();
kubelet.pods = [fakePod('default', 'web')];
kubelet.logs.set('default/web/main', 'hello\n');

let ts: TestServer;
const plain: PlainServer[] = [];
const bases: Record<'kubelet' | 'readonly' | 'healthz', string> = { kubelet: '', readonly: '', healthz: '' };
let tls: TlsClientOptions = {};
before(async () => {
  ts = await startTestServer(kubelet);
  bases.kubelet = ts.base;
  tls = ts.consoleTls;
  for (const [name, make] of [['readonly', createReadOnlyServer], ['healthz', createHealthzServer]] as const) {
    const s = make(kubelet, nullLogger);
    plain.push(s);
    bases[name] = `http://127.0.0.1:${await s.listen(0, '127.0.0.1')}`;
  }
});
after(async () => {
  for (const s of plain) await s.close(10);
  await ts.close();
});

const tlsFor = (base: string) => (base.startsWith('https:') ? tls : {});

describe('malformed URL escapes → 400 with a message', () => {
  const paths: Array<['kubelet' | 'readonly' | 'healthz', string]> = [
    ['kubelet', '/pods%zz'],
    ['kubelet', '/containerLogs/%E0%A4%A'],
    ['kubelet', '/containerLogs/default/%E0%A4%A/main'],
    ['kubelet', '/exec/default/web/%zz'],
    ['kubelet', '/trpc/pods.list%E0'],
    ['kubelet', '/stats/summary%'],
    ['kubelet', '/api/v2.0/ps/%E0%A4%A'],
    ['readonly', '/pods%zz'],
    ['readonly', '/stats/summary%E0%A4%A'],
    ['readonly', '/healthz/%zz'],
    ['healthz', '/healthz%zz'],
    ['healthz', '/%E0%A4%A'],
  ];
  for (const [server, path] of paths) {
    it(`${server} GET ${path}`, async () => {
      const r = await doRequest(`${bases[server]}${path}`, tlsFor(bases[server]));
      assert.equal(r.status, 400, r.body);
      assert.match(r.body, /invalid URL escape/);
    });
  }
  it('kubelet upgrade /exec/default/%E0%A4%A/main → 400', async () => {
    const r = await upgradeRequest(`${bases.kubelet}/exec/default/%E0%A4%A/main?command=ls`, tls);
    assert.equal(r.status, 400);
    assert.match(r.body, /invalid URL escape/);
  });
  // `new URL('//?x=1', base)` throws: on the read-only and healthz ports that was an uncaught exception (agent exit).
  for (const server of ['kubelet', 'readonly', 'healthz'] as const) {
    it(`${server} GET //?x=1 is a 404, and the server stays up`, async () => {
      assert.equal((await doRequest(`${bases[server]}//?x=1`, tlsFor(bases[server]))).status, 404);
      assert.equal((await doRequest(`${bases[server]}/healthz`, tlsFor(bases[server]))).status, 200);
    });
  }
  it('well-formed escapes still route: /containerLogs/default/web/ma%69n', async () => {
    const r = await doRequest(`${bases.kubelet}/containerLogs/default/web/ma%69n`, tls);
    assert.deepEqual([r.status, r.body], [200, 'hello\n']);
  });
});

describe('"." and ".." segments', () => {
  const cases: Array<[string, string]> = [
    ['/pods/../pods', '/pods'],
    ['/healthz/./', '/healthz/'],
    ['/x/%2e%2E/healthz?verbose', '/healthz?verbose'],
    ['/x\\..\\healthz', '/healthz'],
  ];
  for (const server of ['kubelet', 'readonly', 'healthz'] as const) {
    for (const [path, location] of cases) {
      it(`${server} GET ${path} → 301 ${location}`, async () => {
        const r = await rawRequest(bases[server], path, tlsFor(bases[server]));
        assert.deepEqual([r.status, r.headers.location], [301, location]);
      });
    }
  }

  describe('socket.io (which matches the raw path) is authorized as what it is', () => {
    let statsOnly: TestServer;
    const allowStats: Authorizer = { authorize: (a) => (a.subresource === 'stats' ? { allowed: true } : { allowed: false, reason: 'stats only' }) };
    before(async () => {
      statsOnly = await startTestServer(kubelet, { authorizer: allowStats });
    });
    after(() => statsOnly.close());
    for (const path of ['/socket.io/../stats/summary?EIO=4&transport=polling', '/socket.io/\\..\\..\\stats/summary?EIO=4&transport=polling']) {
      it(`a user allowed nodes/stats only: GET ${path} → 403, not a socket.io handshake`, async () => {
        const r = await rawRequest(statsOnly.base, path, statsOnly.consoleTls);
        assert.equal(r.status, 403, r.body);
        assert.match(r.body, /subresource\(s\)=\[proxy\]/);
      });
    }
    it('GET /stats/summary is allowed to that user', async () => {
      assert.equal((await doRequest(`${statsOnly.base}/stats/summary`, statsOnly.consoleTls)).status, 404, 'allowed (no stats in this fake: 404)');
    });
  });
});

/** A request with a body sent as given (content-length or chunked); resolves with the status, or 'closed'. */
function withBody(base: string, path: string, method: string, body: Buffer, chunked: boolean): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const u = new URL(`${base}${path}`);
    const headers: Record<string, string> = chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(body.length) };
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(u, { method, headers: { ...headers, 'Content-Type': 'application/json' }, ...tlsFor(base), agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve('closed'));
    req.end(body);
  });
}

describe('request bodies beyond the cap → 413', () => {
  const big = Buffer.alloc(MAX_ROUTE_BODY_BYTES + 1, 'a');
  for (const server of ['kubelet', 'readonly', 'healthz'] as const) {
    for (const chunked of [false, true]) {
      it(`${server} GET /healthz with ${big.length} bytes (${chunked ? 'chunked' : 'content-length'})`, async () => {
        assert.equal(await withBody(bases[server], '/healthz', 'GET', big, chunked), 413);
      });
    }
    it(`${server} GET /healthz with a small body is served`, async () => {
      assert.equal(await withBody(bases[server], '/healthz', 'GET', Buffer.from('{}'), false), 200);
    });
  }
  it(`kubelet POST /trpc with more than ${MAX_TRPC_BODY_BYTES} bytes → 413`, async () => {
    const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(MAX_TRPC_BODY_BYTES) }));
    assert.equal(await withBody(bases.kubelet, '/trpc/gc.images', 'POST', body, false), 413);
    // Chunked: tRPC counts while reading (maxBodySize); a procedure without input never reads it (Node discards it).
    const chunked = await withBody(bases.kubelet, '/trpc/gc.images', 'POST', body, true);
    assert.ok(chunked === 'closed' || chunked < 500, String(chunked));
  });
});
