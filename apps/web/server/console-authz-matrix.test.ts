/**
 * The 4194 column of the authn/authz matrix: every console route × {anonymous, bad token, signed-in session,
 * authorized bearer, bearer of a user the agent refuses}, against the real agent server, printed as a table.
 * Expected values follow the rules: no credential → 401 from the console; a bad token → the agent's 401; a refused
 * user → the agent's 403, passed through; pages and /agents.json need a session (a bearer is for API clients);
 * paths outside the allow-list → 404 for anyone with a credential; traversal → 400 for everyone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rawRequest, upgradeHeaders } from './testing/raw-http.ts';
import { TOKENS, useSignedInStack } from './testing/console-stack.ts';

const ctx = useSignedInStack();

type Cred = 'anonymous' | 'bad token' | 'session' | 'bearer' | 'refused user';
const CREDS: Cred[] = ['anonymous', 'bad token', 'session', 'bearer', 'refused user'];

interface Route {
  name: string;
  method?: string;
  target: string | ((c: Cred) => string);
  headers?: Record<string, string>;
  body?: string;
  stream?: boolean;
  upgrade?: boolean;
  want: Record<Cred, number>;
}

const api = (ok: number, none = 401): Record<Cred, number> => ({ anonymous: none, 'bad token': 401, session: ok, bearer: ok, 'refused user': 403 });
const tokenOf: Record<Cred, string> = { anonymous: '', 'bad token': 'not-a-valid-token-xyz', session: TOKENS.admin, bearer: TOKENS.admin, 'refused user': TOKENS.refused };

const ROUTES: Route[] = [
  { name: 'GET / (page)', target: '/', want: { anonymous: 401, 'bad token': 401, session: 200, bearer: 401, 'refused user': 401 } },
  { name: 'GET /agents.json', target: '/agents.json', want: { anonymous: 401, 'bad token': 401, session: 200, bearer: 401, 'refused user': 401 } },
  { name: 'GET /trpc/node.get', target: '/trpc/node.get', want: api(200) },
  { name: 'GET /trpc/pods.list,node.get (batch)', target: '/trpc/pods.list,node.get?batch=1&input=%7B%7D', want: api(200) },
  { name: 'POST /trpc/gc.containers', method: 'POST', target: '/trpc/gc.containers', body: '{}', headers: { 'content-type': 'application/json', 'x-nodelet-csrf': '1' }, want: api(200) },
  { name: 'GET /trpc/lifecycle.onEvent (SSE)', target: '/trpc/lifecycle.onEvent', stream: true, want: api(200) },
  { name: 'GET /socket.io polling handshake', target: '/socket.io/?EIO=4&transport=polling', want: api(200) },
  { name: 'WS /socket.io websocket', target: '/socket.io/?EIO=4&transport=websocket', upgrade: true, want: api(101) },
  { name: 'GET /api/v1.3/machine', target: '/api/v1.3/machine', want: api(200) },
  { name: 'GET /api/v2.0/stats/kubepods', target: '/api/v2.0/stats/kubepods?count=1', want: api(200) },
  { name: 'GET /agents/default/trpc/node.get', target: '/agents/default/trpc/node.get', want: api(200) },
  { name: 'GET /containerLogs/default/web/main', target: '/containerLogs/default/web/main?tailLines=1', want: api(200) },
  { name: 'GET /containerLogs/default/web/ghost', target: '/containerLogs/default/web/ghost', want: api(404) },
  { name: 'GET /containerLogs/...?tailLines=-1', target: '/containerLogs/default/web/main?tailLines=-1', want: api(400) },
  { name: 'POST /containerLogs/default/web/main', method: 'POST', target: '/containerLogs/default/web/main', want: { anonymous: 401, 'bad token': 405, session: 405, bearer: 405, 'refused user': 405 } },
  { name: 'GET /api/exec/default/web/main', target: '/api/exec/default/web/main?command=id', want: { anonymous: 401, 'bad token': 404, session: 404, bearer: 404, 'refused user': 404 } },
  { name: 'GET /agents/nope/trpc/node.get', target: '/agents/nope/trpc/node.get', want: { anonymous: 401, 'bad token': 404, session: 404, bearer: 404, 'refused user': 404 } },
  { name: 'GET /api/../exec/... (traversal)', target: '/api/../exec/default/web/main?command=id', want: { anonymous: 400, 'bad token': 400, session: 400, bearer: 400, 'refused user': 400 } },
  { name: 'WS /api/../exec/... (traversal)', target: '/api/../exec/default/web/main?command=id', upgrade: true, want: { anonymous: 400, 'bad token': 400, session: 400, bearer: 400, 'refused user': 400 } },
  { name: 'GET /?token=<token> (sign-in)', target: (c) => `/?token=${encodeURIComponent(tokenOf[c])}`, want: { anonymous: 401, 'bad token': 401, session: 303, bearer: 303, 'refused user': 403 } },
  { name: 'POST /sign-out', method: 'POST', target: '/sign-out', want: { anonymous: 403, 'bad token': 303, session: 303, bearer: 303, 'refused user': 303 } },
];

function credHeaders(c: Cred, r: Route, origin: string): Record<string, string> {
  const h: Record<string, string> = {};
  if (c === 'session') Object.assign(h, { cookie: ctx.cookie, origin, 'sec-fetch-site': 'same-origin' });
  else if (c !== 'anonymous') h.authorization = `Bearer ${tokenOf[c]}`;
  if (r.upgrade) Object.assign(h, upgradeHeaders(c === 'session' ? { origin } : {}));
  return h;
}

test('authn/authz matrix of the console (port 4194)', async () => {
  const origin = `http://127.0.0.1:${ctx.s.port}`;
  const rows: string[][] = [];
  const mismatches: string[] = [];
  for (const r of ROUTES) {
    const row = [r.name];
    for (const c of CREDS) {
      if (r.name === 'POST /sign-out' && c === 'session') ctx.cookie = await ctx.s.signIn(); // fresh session per sign-out
      const target = typeof r.target === 'function' ? r.target(c) : r.target;
      const res = await rawRequest(ctx.s.port, { method: r.method ?? 'GET', target, headers: { ...credHeaders(c, r, origin), ...(r.headers ?? {}) }, ...(r.body !== undefined ? { body: r.body } : {}), ...(r.stream ? { headOnly: true } : {}) });
      const want = r.want[c];
      row.push(res.status === want ? String(res.status) : `${res.status}≠${want}`);
      if (res.status !== want) mismatches.push(`${r.name} as ${c}: ${res.status} (want ${want}) ${res.body.slice(0, 200)}`);
    }
    rows.push(row);
    if (r.name === 'POST /sign-out') ctx.cookie = await ctx.s.signIn();
  }
  const widths = [Math.max(...rows.map((r) => r[0]?.length ?? 0)), ...CREDS.map((c) => Math.max(c.length, 7))];
  const line = (cells: string[]) => cells.map((x, i) => x.padEnd(widths[i] ?? 8)).join(' | ');
  console.log(`\n${line(['route (console :4194)', ...CREDS])}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}\n${rows.map(line).join('\n')}\n`);
  assert.deepEqual(mismatches, []);
});
