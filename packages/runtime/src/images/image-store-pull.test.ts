import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { ImageStore } from './image-store.ts';
import { sha256 } from './blob-store.ts';
import { hostArch, MANIFEST_ACCEPT, MEDIA } from './oci.ts';
import { buildBusyboxOciLayout, pushToRegistry, startLoopbackRegistry, type LoopbackRegistry } from './testing/build-busybox.ts';
import type { ImageLogger, PullProgress } from './types.ts';

const quiet: ImageLogger = { debug() {}, info() {}, warn() {}, error() {} };
let work: string;
let registry: LoopbackRegistry;
let manifestDigest: string;
let otherDigest: string;

before(async () => {
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'image-pull-'));
  const img = await buildBusyboxOciLayout(path.join(work, 'build'));
  registry = await startLoopbackRegistry(path.join(work, 'registry'));
  await pushToRegistry(img, registry.host, 'busybox:latest');
  const other = await buildBusyboxOciLayout(path.join(work, 'build'), { tag: 'other', cmd: ['echo', 'other'] });
  await pushToRegistry(other, registry.host, 'busybox:other');
  manifestDigest = await headDigest('latest');
  otherDigest = await headDigest('other');
  assert.notEqual(manifestDigest, otherDigest);
});
after(async () => {
  await registry?.stop();
  await fsp.rm(work, { recursive: true, force: true });
});

async function headDigest(tag: string): Promise<string> {
  const res = await fetch(`${registry.url}/v2/busybox/manifests/${tag}`, { method: 'HEAD', headers: { accept: MANIFEST_ACCEPT } });
  const digest = res.headers.get('docker-content-digest') ?? '';
  assert.match(digest, /^sha256:/);
  return digest;
}

function newStore(name: string, fetchFn?: typeof fetch): ImageStore {
  return new ImageStore({ rootDir: path.join(work, name), logger: quiet, ...(fetchFn ? { fetch: fetchFn } : {}) });
}

test('pull from a loopback registry: digest, tags, rootfs, progress; concurrent pulls deduplicated', async (t) => {
  const urls: string[] = [];
  const counting: typeof fetch = (input, init) => {
    urls.push(String(input));
    return fetch(input, init);
  };
  const s = newStore('pull', counting);
  await s.init();
  const events: PullProgress[] = [];
  const ref = `${registry.host}/busybox`;
  const started = performance.now();
  const [a, b] = await Promise.all([s.pull(ref, { onProgress: (p) => events.push(p) }), s.pull(`${ref}:latest`)]);
  t.diagnostic(`fresh pull of busybox from the loopback registry: ${(performance.now() - started).toFixed(0)} ms`);
  assert.ok(a.ok, JSON.stringify(a));
  assert.deepEqual(b, a);
  assert.equal(urls.filter((u) => u.includes('/manifests/')).length, 1, urls.join('\n'));
  assert.deepEqual(a.image.repoTags, [`${registry.host}/busybox:latest`]);
  assert.deepEqual(a.image.repoDigests, [`${registry.host}/busybox@${manifestDigest}`]);
  const rootfs = s.rootfsOf(a.image.id)!;
  assert.ok(fs.statSync(path.join(rootfs, 'bin/busybox')).isFile());
  assert.deepEqual(s.config(a.image.id)?.cmd, ['sh']);
  const phases = [...new Set(events.map((e) => e.phase))];
  assert.deepEqual(phases, ['resolving', 'downloading', 'unpacking', 'done']);
  const last = events.at(-1)!;
  assert.ok(last.totalBytes > 500_000 && last.doneBytes === last.totalBytes, JSON.stringify(last));
  assert.ok(events.some((e) => e.phase === 'downloading' && e.layer?.startsWith('sha256:')));

  const byDigest = await s.pull(`${ref}@${manifestDigest}`);
  assert.equal(byDigest.ok && byDigest.image.id, a.image.id);
  assert.equal(s.status(`${ref}@${manifestDigest}`)?.id, a.image.id);
  const again = await s.pull(ref);
  assert.equal(again.ok && again.image.id, a.image.id);
  assert.equal(urls.filter((u) => u.includes('/blobs/')).length, 2, 'second pull reuses stored blobs');

  assert.equal(await s.remove(ref), true);
  assert.equal(s.status(ref), undefined);
  assert.equal(fs.existsSync(rootfs), false);
});

test('pull through a multi-platform index picks the host platform; repoDigest is the index digest', async () => {
  const manifest = await fetch(`${registry.url}/v2/busybox/manifests/latest`, { headers: { accept: MANIFEST_ACCEPT } });
  const size = Number((await manifest.arrayBuffer()).byteLength);
  const otherSize = Number((await (await fetch(`${registry.url}/v2/busybox/manifests/other`, { headers: { accept: MANIFEST_ACCEPT } })).arrayBuffer()).byteLength);
  const entry = (architecture: string, digest: string, n: number) => ({ mediaType: MEDIA.ociManifest, digest, size: n, platform: { os: 'linux', architecture } });
  const wrongArch = hostArch() === 's390x' ? 'arm64' : 's390x';
  const manifests = [entry(wrongArch, otherDigest, otherSize), entry(hostArch(), manifestDigest, size)];
  const index = JSON.stringify({ schemaVersion: 2, mediaType: MEDIA.ociIndex, manifests });
  const put = await fetch(`${registry.url}/v2/busybox/manifests/multi`, { method: 'PUT', headers: { 'content-type': MEDIA.ociIndex }, body: index });
  assert.equal(put.status, 201, await put.text());
  const indexDigest = put.headers.get('docker-content-digest');
  assert.equal(indexDigest, sha256(index));
  const s = newStore('index');
  await s.init();
  const r = await s.pull(`${registry.host}/busybox:multi`);
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.image.repoDigests, [`${registry.host}/busybox@${indexDigest}`]);
  assert.deepEqual(r.image.repoTags, [`${registry.host}/busybox:multi`]);
  assert.deepEqual(s.config(r.image.id)?.cmd, ['sh']);
});

test('pull failures are values: unknown tag/repo NotFound, closed port Unreachable, bad ref Invalid', async () => {
  const s = newStore('fail');
  await s.init();
  const closed = await closedPort();
  const table: Array<[string, string, RegExp]> = [
    [`${registry.host}/busybox:nope`, 'NotFound', new RegExp(`^failed to resolve reference "${registry.host}/busybox:nope": ${registry.host}/busybox:nope: not found$`)],
    [`${registry.host}/nothing/here`, 'NotFound', /nothing\/here:latest.*not found/],
    [`127.0.0.1:${closed}/busybox`, 'Unreachable', /^failed to resolve reference "127\.0\.0\.1:\d+\/busybox:latest": failed to do request: .*ECONNREFUSED/],
    ['no-such-host.invalid/busybox', 'Unreachable', /ENOTFOUND|EAI_AGAIN/],
    ['Bad Ref', 'Invalid', /invalid reference format/],
  ];
  for (const [ref, reason, message] of table) {
    const r = await s.pull(ref);
    assert.equal(r.ok, false, ref);
    if (r.ok) continue;
    assert.equal(r.reason, reason, `${ref}: ${r.message}`);
    assert.match(r.message, message, ref);
  }
  const aborted = await s.pull(`${registry.host}/busybox`, { signal: AbortSignal.abort() });
  assert.equal(!aborted.ok && aborted.reason, 'Unreachable');
  assert.equal(s.list().length, 1);
});

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** A registry front requiring a bearer token from its own /token endpoint (basic user:pass). */
async function startAuthProxy(upstream: string): Promise<{ host: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const port = (server.address() as { port: number }).port;
    if (url.pathname === '/token') {
      const ok = req.headers.authorization === 'Basic ' + Buffer.from('alice:secret').toString('base64');
      const scopeOk = url.searchParams.get('scope') === 'repository:busybox:pull' && url.searchParams.get('service') === 'test';
      res.writeHead(ok && scopeOk ? 200 : 401, { 'content-type': 'application/json' });
      return res.end(ok && scopeOk ? JSON.stringify({ token: 'tok-123' }) : '{}');
    }
    if (req.headers.authorization !== 'Bearer tok-123') {
      res.writeHead(401, { 'www-authenticate': `Bearer realm="http://127.0.0.1:${port}/token",service="test",scope="repository:busybox:pull"` });
      return res.end();
    }
    const up = await fetch(`${upstream}${req.url}`, { headers: { accept: String(req.headers.accept ?? '*/*') } });
    const headers: Record<string, string> = {};
    for (const h of ['content-type', 'docker-content-digest', 'content-length']) {
      const v = up.headers.get(h);
      if (v !== null) headers[h] = v;
    }
    res.writeHead(up.status, headers);
    res.end(Buffer.from(await up.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { host: `127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

test('bearer token flow: credentials get a token, anonymous is Unauthorized', async () => {
  const proxy = await startAuthProxy(registry.url);
  try {
    const s = newStore('auth');
    await s.init();
    const anon = await s.pull(`${proxy.host}/busybox`);
    assert.equal(!anon.ok && anon.reason, 'Unauthorized', JSON.stringify(anon));
    const wrong = await s.pull(`${proxy.host}/busybox`, { auth: { username: 'alice', password: 'nope' } });
    assert.equal(!wrong.ok && wrong.reason, 'Unauthorized');
    const encoded = Buffer.from('alice:secret').toString('base64');
    const good = await s.pull(`${proxy.host}/busybox`, { auth: { auth: encoded } });
    assert.ok(good.ok, JSON.stringify(good));
    assert.deepEqual(good.image.repoDigests, [`${proxy.host}/busybox@${manifestDigest}`]);
  } finally {
    proxy.server.closeAllConnections();
    await new Promise((r) => proxy.server.close(r));
  }
});
