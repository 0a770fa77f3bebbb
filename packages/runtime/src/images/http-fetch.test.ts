/**
 * The registry client's fetch: reaches the ports the WHATWG fetch refuses (as containerd does), follows redirects
 * dropping Authorization across origins (as fetch), and fails as fetch fails (TypeError "fetch failed", the
 * socket error as cause).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { registryFetch } from './http-fetch.ts';

/** Ports on the Fetch standard's bad-port list; the first free one is used. */
const BAD_PORTS = [6666, 6667, 6668, 6669, 6665, 6000, 10080, 5060];

async function listen(handler: (path: string, h: IncomingHttpHeaders, method: string, body: string) => [number, Record<string, string>, string], port = 0): Promise<{ server: Server; origin: string; seen: Array<{ path: string; h: IncomingHttpHeaders; method: string }> }> {
  const seen: Array<{ path: string; h: IncomingHttpHeaders; method: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', h: req.headers, method: req.method ?? '' });
      const [status, headers, text] = handler(req.url ?? '', req.headers, req.method ?? '', body);
      res.writeHead(status, headers).end(text);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  return { server, origin: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, seen };
}

async function onBadPort(handler: Parameters<typeof listen>[0]) {
  for (const p of BAD_PORTS) {
    try {
      return await listen(handler, p);
    } catch {
      // in use: try the next one
    }
  }
  return undefined;
}

test('a registry on a port the WHATWG fetch refuses is reached', async (t) => {
  const srv = await onBadPort(() => [200, { 'content-type': 'application/json' }, '{"ok":true}']);
  if (!srv) return t.skip(`every port of ${BAD_PORTS.join(', ')} is in use here`);
  try {
    const refused = await fetch(`${srv.origin}/v2/`).then(() => 'reached', (e: Error & { cause?: Error }) => e.cause?.message ?? e.message);
    assert.equal(refused, 'bad port', 'the platform fetch refuses it (why this module exists)');
    const res = await registryFetch(`${srv.origin}/v2/`);
    assert.equal(res.status, 200);
    assert.equal(res.ok, true);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(await res.json(), { ok: true });
  } finally {
    srv.server.close();
  }
});

test('redirects: followed, Authorization kept on the same origin and dropped on another, 303 turns POST into GET', async () => {
  const cdn = await listen((path) => [200, {}, `cdn ${path}`]);
  const reg = await listen((path) => {
    if (path === '/v2/r/blobs/a') return [307, { location: '/v2/r/blobs/b' }, ''];
    if (path === '/v2/r/blobs/b') return [307, { location: `${cdn.origin}/signed?x=1` }, ''];
    if (path === '/token') return [303, { location: '/token-get' }, ''];
    return [200, {}, `reg ${path}`];
  });
  try {
    const res = await registryFetch(`${reg.origin}/v2/r/blobs/a`, { headers: { authorization: 'Basic eDp5' } });
    assert.equal(await res.text(), 'cdn /signed?x=1');
    assert.deepEqual(reg.seen.map((s) => [s.path, s.h.authorization]), [['/v2/r/blobs/a', 'Basic eDp5'], ['/v2/r/blobs/b', 'Basic eDp5']]);
    assert.equal(cdn.seen[0]?.h.authorization, undefined);
    const tok = await registryFetch(`${reg.origin}/token`, { method: 'POST', body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(await tok.text(), 'reg /token-get');
    assert.deepEqual(reg.seen.slice(-2).map((s) => s.method), ['POST', 'GET']);
  } finally {
    reg.server.close();
    cdn.server.close();
  }
});

test('errors as fetch: a refused connection, an aborted request, a 404 body', async () => {
  const gone = await listen(() => [404, {}, '{"errors":[{"code":"MANIFEST_UNKNOWN"}]}']);
  const origin = gone.origin;
  const res = await registryFetch(`${origin}/v2/x/manifests/1`);
  assert.deepEqual([res.status, res.ok, await res.text()], [404, false, '{"errors":[{"code":"MANIFEST_UNKNOWN"}]}']);
  await new Promise((r) => gone.server.close(r));
  const err = await registryFetch(`${origin}/v2/`).then(() => undefined, (e: Error & { cause?: NodeJS.ErrnoException }) => e);
  assert.ok(err instanceof TypeError);
  assert.equal(err.message, 'fetch failed');
  assert.equal(err.cause?.code, 'ECONNREFUSED');
  const ac = new AbortController();
  ac.abort(new Error('pull cancelled'));
  await assert.rejects(registryFetch('http://127.0.0.1:9/', { signal: ac.signal }), /pull cancelled/);
});
