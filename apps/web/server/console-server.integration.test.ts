/**
 * Issue #12 through the real console server in front of the real agent server (port 0): traversal to the agent's
 * exec/logs paths, cross-origin mutations, socket.io from a foreign Origin, a foreign Host, no session; sign-in with
 * the token URL and the form, sign-out; the agent gets the user's token and nothing the browser sent it must not trust.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { io } from 'socket.io-client';
import { rawRequest, upgradeHeaders } from './testing/raw-http.ts';
import { TOKENS, useSignedInStack } from './testing/console-stack.ts';

const ctx = useSignedInStack();
const selfOrigin = () => `http://127.0.0.1:${ctx.s.port}`;

const TRAVERSALS = [
  '/api/../exec/default/web/main?command=id&stdout=1',
  '/trpc/../exec/default/web/main?command=id&stdout=1',
  '/api/%2e%2e/exec/default/web/main?command=id&stdout=1',
  '/agents/default/api/../exec/default/web/main?command=id&stdout=1',
  '/api/../containerLogs/default/web/main',
  '/api/%2E%2E/containerLogs/default/web/main',
  '/trpc/..%2fcontainerLogs/default/web/main',
  '/api/..\\containerLogs/default/web/main',
  '/socket.io/../run/default/web/main',
];

test('traversal to exec / containerLogs is refused (400/404) over HTTP and never reaches the agent', async () => {
  for (const target of TRAVERSALS) {
    const before = ctx.s.agentSeen.length;
    for (const method of ['GET', 'POST']) {
      const r = await rawRequest(ctx.s.port, { method, target, headers: { cookie: ctx.cookie } });
      assert.ok(r.status === 400 || r.status === 404, `${method} ${target} → ${r.status} ${r.body}`);
      assert.doesNotMatch(r.body, /hunter2|uid=/);
    }
    assert.deepEqual(ctx.s.agentSeen.slice(before), [], `${target} reached the agent`);
  }
  assert.deepEqual(ctx.s.kubelet.logCalls, []);
});

test('traversal as a WebSocket upgrade is refused and never reaches the agent', async () => {
  for (const target of TRAVERSALS) {
    const before = ctx.s.agentSeen.length;
    const r = await rawRequest(ctx.s.port, { target, headers: upgradeHeaders({ cookie: ctx.cookie, origin: selfOrigin() }) });
    assert.ok(r.status === 400 || r.status === 404, `${target} → ${r.status}`);
    assert.deepEqual(ctx.s.agentSeen.slice(before), [], `${target} reached the agent`);
  }
});

test('a cross-origin multipart/form-data POST to gc.containers is refused (403) and GC does not run', async () => {
  const boundary = '----x';
  const body = `--${boundary}\r\ncontent-disposition: form-data; name="a"\r\n\r\n1\r\n--${boundary}--\r\n`;
  const forms: Array<[Record<string, string>, number]> = [
    [{ origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }, 403],
    [{ origin: 'http://evil.example' }, 403],
    [{ origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site' }, 403],
    [{ origin: selfOrigin(), 'sec-fetch-site': 'same-origin' }, 415], // the console's own origin, but not JSON
  ];
  for (const [h, want] of forms) {
    const r = await rawRequest(ctx.s.port, { method: 'POST', target: '/trpc/gc.containers', body, headers: { cookie: ctx.cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, ...h } });
    assert.equal(r.status, want, `${JSON.stringify(h)}: ${r.body}`);
    assert.ok(JSON.parse(r.body).error, 'a JSON error message');
  }
  const noHeader = await rawRequest(ctx.s.port, { method: 'POST', target: '/trpc/gc.containers', body: '{}', headers: { cookie: ctx.cookie, 'content-type': 'application/json', origin: selfOrigin(), 'sec-fetch-site': 'same-origin' } });
  assert.equal(noHeader.status, 403, 'JSON without x-nodelet-csrf');
  assert.equal(ctx.s.gcRuns(), 0);
  const ok = await rawRequest(ctx.s.port, { method: 'POST', target: '/trpc/gc.containers', body: '{}', headers: { cookie: ctx.cookie, 'content-type': 'application/json', origin: selfOrigin(), 'sec-fetch-site': 'same-origin', 'x-nodelet-csrf': '1' } });
  assert.equal(ok.status, 200, ok.body);
  assert.equal(ctx.s.gcRuns(), 1);
});

function socketHello(o: string | undefined, transports: string[]): Promise<'hello' | string> {
  return new Promise((resolve) => {
    const sock = io(`http://127.0.0.1:${ctx.s.port}`, { path: '/socket.io', transports, reconnection: false, extraHeaders: { cookie: ctx.cookie, ...(o ? { origin: o } : {}) }, timeout: 5000 });
    sock.on('nodelet:hello', () => (sock.close(), resolve('hello')));
    sock.on('connect_error', (e) => (sock.close(), resolve(e.message)));
  });
}

test('socket.io from a foreign Origin is refused (polling and websocket); from the console origin it streams', async () => {
  for (const t of [['polling'], ['websocket']]) {
    assert.notEqual(await socketHello('http://evil.example', t), 'hello', `${t[0]} from evil.example`);
    assert.equal(await socketHello(selfOrigin(), t), 'hello', `${t[0]} from the console`);
  }
  const r = await rawRequest(ctx.s.port, { target: '/socket.io/?EIO=4&transport=websocket', headers: upgradeHeaders({ cookie: ctx.cookie }) });
  assert.equal(r.status, 403, 'a cookie-authenticated websocket without Origin');
});

test('a foreign Host header (DNS rebinding) is refused on pages, API and upgrades', async () => {
  for (const target of ['/', '/trpc/node.get', '/socket.io/?EIO=4&transport=polling']) {
    const r = await rawRequest(ctx.s.port, { target, headers: { cookie: ctx.cookie, host: `rebind.evil.example:${ctx.s.port}` } });
    assert.equal(r.status, 403, target);
    assert.match(JSON.parse(r.body).error, /not one of this console's names/);
  }
  const u = await rawRequest(ctx.s.port, { target: '/socket.io/?EIO=4&transport=websocket', headers: upgradeHeaders({ cookie: ctx.cookie, host: 'evil.example', origin: 'http://evil.example' }) });
  assert.equal(u.status, 403);
  for (const host of ['localhost', `localhost:${ctx.s.port}`, 'fake-node', '[::1]:1']) {
    assert.equal((await rawRequest(ctx.s.port, { target: '/', headers: { cookie: ctx.cookie, host } })).status, 200, host);
  }
});

test('no session: API 401 JSON, pages the sign-in page (401), upgrades 401', async () => {
  for (const target of ['/trpc/node.get', '/api/v1.3/machine', '/socket.io/?EIO=4&transport=polling', '/agents.json', '/agents/default/trpc/node.get']) {
    const r = await rawRequest(ctx.s.port, { target });
    assert.equal(r.status, 401, target);
    assert.equal(JSON.parse(r.body).error, 'sign in required');
  }
  const page = await rawRequest(ctx.s.port, { target: '/gc' });
  assert.equal(page.status, 401);
  assert.match(page.body, /<form method="post" action="\/sign-in"/);
  assert.match(page.body, /name="next" value="\/gc"/);
  const ws = await rawRequest(ctx.s.port, { target: '/socket.io/?EIO=4&transport=websocket', headers: upgradeHeaders({ origin: selfOrigin() }) });
  assert.equal(ws.status, 401);
});

test('sign-in: the token URL sets an opaque HttpOnly SameSite=Strict cookie and redirects (303) without the token', async () => {
  const r = await rawRequest(ctx.s.port, { target: `/pods/default/web?x=1&token=${TOKENS.admin}`, headers: { 'sec-fetch-site': 'none' } });
  assert.equal(r.status, 303);
  assert.equal(r.headers.location, '/pods/default/web?x=1');
  const c = r.headers['set-cookie'] ?? '';
  assert.match(c, new RegExp(`^nodelet-console-\\d+=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict; Max-Age=3600$`));
  assert.ok(!c.includes(TOKENS.admin), 'the cookie is not the token');
  const bad = await rawRequest(ctx.s.port, { target: '/?token=wrong-token' });
  assert.equal(bad.status, 401);
  assert.match(bad.body, /did not accept this token/);
  assert.equal(bad.headers['set-cookie'], undefined);
  const refused = await rawRequest(ctx.s.port, { target: `/?token=${TOKENS.refused}` });
  assert.equal(refused.status, 403);
  assert.match(refused.body, /refuses this user: Forbidden \(user=refused-user/);
  const crossSite = await rawRequest(ctx.s.port, { target: `/?token=${TOKENS.admin}`, headers: { 'sec-fetch-site': 'cross-site' } });
  assert.equal(crossSite.status, 403, 'a sign-in link from another site (login CSRF)');
  assert.match(crossSite.body, /opened directly/);
  assert.equal(crossSite.headers['set-cookie'], undefined);
});

test('sign-in form and sign-out', async () => {
  const form = (h: Record<string, string>) =>
    rawRequest(ctx.s.port, { method: 'POST', target: '/sign-in', body: `token=${TOKENS.admin}&next=%2Fevents`, headers: { 'content-type': 'application/x-www-form-urlencoded', ...h } });
  assert.equal((await form({ origin: 'http://evil.example' })).status, 403);
  const r = await form({ origin: selfOrigin(), 'sec-fetch-site': 'same-origin' });
  assert.equal(r.status, 303);
  assert.equal(r.headers.location, '/events');
  const c = (r.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  assert.equal((await rawRequest(ctx.s.port, { target: '/trpc/node.get', headers: { cookie: c } })).status, 200);
  const out = await rawRequest(ctx.s.port, { method: 'POST', target: '/sign-out', headers: { cookie: c, origin: selfOrigin(), 'sec-fetch-site': 'same-origin' } });
  assert.equal(out.status, 303);
  assert.match(out.headers['set-cookie'] ?? '', /Max-Age=0/);
  assert.equal((await rawRequest(ctx.s.port, { target: '/trpc/node.get', headers: { cookie: c } })).status, 401, 'the session is gone');
});

test('the agent gets the user token as Bearer and none of the browser headers it must not trust', async () => {
  const before = ctx.s.agentHeaders.length;
  const r = await rawRequest(ctx.s.port, {
    target: '/trpc/node.get',
    headers: { cookie: ctx.cookie, authorization: 'Basic eA==', 'x-forwarded-for': '10.0.0.1', 'x-forwarded-host': 'evil', forwarded: 'for=1.2.3.4', 'impersonate-user': 'system:admin', origin: selfOrigin() },
  });
  assert.equal(r.status, 200, r.body);
  const h = ctx.s.agentHeaders.slice(before);
  assert.equal(h.length, 1);
  assert.equal(h[0]?.authorization, `Bearer ${TOKENS.admin}`);
  for (const k of ['cookie', 'x-forwarded-for', 'x-forwarded-host', 'forwarded', 'impersonate-user', 'origin']) assert.equal(h[0]?.[k], undefined, k);
});

test('a session whose token the agent stops accepting ends: the 401 passes through, then the console asks to sign in', async () => {
  const c = await ctx.s.signIn(TOKENS.revocable);
  assert.equal((await rawRequest(ctx.s.port, { target: '/trpc/node.get', headers: { cookie: c } })).status, 200);
  ctx.s.revoke();
  const agent401 = await rawRequest(ctx.s.port, { target: '/trpc/node.get', headers: { cookie: c } });
  assert.equal(agent401.status, 401);
  assert.match(agent401.body, /Unauthorized/, "the agent's answer");
  const page = await rawRequest(ctx.s.port, { target: '/', headers: { cookie: c } });
  assert.equal(page.status, 401, 'the session is gone: the sign-in page');
  assert.match(page.body, /sign-in-form/);
});
