import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { realClock } from '../util/clock.ts';
import { createApiClientFromKubeconfig } from './client.ts';
import type { ApiClient, WatchEvent } from './types.ts';

const dir = mkdtempSync(join(tmpdir(), 'apiclient-test-'));
const seen: Array<{ method?: string; url?: string; auth?: string; type?: string; body: string }> = [];
let url = '';
const server = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body });
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.searchParams.get('watch') === 'true') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"2"}}}\n{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"3"}}}\n');
      res.end('{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired","message":"too old resource version: 1 (3)"}}\n');
      return;
    }
    if (u.pathname === '/api/v1/namespaces/default/pods/missing') {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, message: 'pods "missing" not found' }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Pod', metadata: { name: 'x' } }));
  });
});

function kubeconfig(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const good = () => `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${url}", insecure-skip-tls-verify: true } }]
users: [{ name: u, user: { token: secret-token } }]
contexts: [{ name: ctx, context: { cluster: c, user: u } }]
current-context: ctx
`;

let client: ApiClient;
before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const r = await createApiClientFromKubeconfig(kubeconfig('good', good()), { clock: realClock });
  assert.ok(r.ok, r.ok ? '' : r.reason);
  client = r.client;
});
after(() => {
  client?.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('API client from a kubeconfig', () => {
  it('sends JSON with the bearer token and the patch content type; failures carry the Status reason', async () => {
    const r = await client.request({ method: 'PATCH', path: '/api/v1/namespaces/default/pods/x/status', contentType: 'application/strategic-merge-patch+json', body: { status: { phase: 'Running' } } });
    assert.ok(r.ok);
    const last = seen.at(-1)!;
    assert.equal(last.auth, 'Bearer secret-token');
    assert.equal(last.type, 'application/strategic-merge-patch+json');
    assert.deepEqual(JSON.parse(last.body), { status: { phase: 'Running' } });
    const missing = await client.request({ method: 'GET', path: '/api/v1/namespaces/default/pods/missing' });
    assert.deepEqual(missing, { ok: false, status: 404, reason: 'NotFound', message: 'pods "missing" not found' });
  });

  it('streams watch events and ends with the ERROR event as a failure (410 Expired)', async () => {
    const events: WatchEvent[] = [];
    const end = await client.watch('/api/v1/pods', { resourceVersion: '1', allowWatchBookmarks: true }, (e) => events.push(e), new AbortController().signal);
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'BOOKMARK']);
    assert.deepEqual(end, { ok: false, status: 410, reason: 'Expired', message: 'too old resource version: 1 (3)' });
    assert.match(seen.at(-1)?.url ?? '', /watch=true/);
    assert.match(seen.at(-1)?.url ?? '', /allowWatchBookmarks=true/);
  });

  it('a server that cannot be reached is a ConnectionError value', async () => {
    const r = await createApiClientFromKubeconfig(kubeconfig('down', good().replace(url, 'http://127.0.0.1:1')), { clock: realClock });
    assert.ok(r.ok);
    const got = await r.client.request({ method: 'GET', path: '/api/v1/nodes' });
    assert.equal(got.ok, false);
    assert.equal(!got.ok && got.reason, 'ConnectionError');
    r.client.close();
  });

  const invalid: Array<{ name: string; text?: string; err: RegExp }> = [
    { name: 'missing file', err: /invalid kubeconfig .*nope/ },
    { name: 'no current cluster', text: 'apiVersion: v1\nkind: Config\nclusters: []\nusers: []\ncontexts: []\n', err: /no current cluster/ },
    { name: 'bad server URL', text: good().replace(/server: "[^"]*"/, 'server: "::nope"'), err: /is not a URL/ },
  ];
  for (const t of invalid) {
    it(`invalid kubeconfig: ${t.name}`, async () => {
      const path = t.text === undefined ? join(dir, 'nope') : kubeconfig(t.name.replace(/ /g, '-'), t.text);
      const r = await createApiClientFromKubeconfig(path, { clock: realClock });
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.reason, t.err);
    });
  }
});
