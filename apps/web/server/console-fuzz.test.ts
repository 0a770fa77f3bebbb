/**
 * Property-based fuzzing of the console's request handling (fast-check, bounded runs) against the real agent server:
 * random paths built from allowed prefixes, traversal pieces, escapes and odd bytes, random methods, credentials and
 * browser headers, over HTTP and as WebSocket upgrades. Properties: never a 5xx, never a stack trace or host path in
 * a response, and everything that reaches the agent is — as the agent itself reads it (WHATWG URL parsing) — one of
 * the allow-listed paths: a procedure of the agent's own router, /socket.io/, a cAdvisor REST resource, or one
 * container's log (/containerLogs/{namespace}/{pod}/{container}; the upgrade branch above admits only socket.io).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { appRouter } from '@nodelet/agent/testing';
import { rawRequest, upgradeHeaders } from './testing/raw-http.ts';
import { TOKENS, useSignedInStack } from './testing/console-stack.ts';

const ctx = useSignedInStack();

const procedures = new Set(Object.keys((appRouter as unknown as { _def: { procedures: object } })._def.procedures));

/** The oracle: what the agent routes on (its URL parser's pathname) must be an allowed console path. */
function allowedAtAgent(seen: string): boolean {
  const raw = seen.replace(/^upgrade /, '');
  const rawPath = raw.split('?')[0] ?? '';
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(rawPath) || rawPath.includes('\\') || /%(2f|5c|00)/i.test(rawPath)) return false;
  const path = new URL(raw, 'https://agent.invalid').pathname;
  if (seen.startsWith('upgrade ')) return path === '/socket.io/';
  const trpc = /^\/trpc\/([^/]+)$/.exec(path);
  if (trpc?.[1]) return trpc[1].split(',').every((p) => procedures.has(p));
  if (/^\/containerLogs\/[^/]+\/[^/]+\/[^/]+$/.test(path)) return true;
  return path === '/socket.io/' || /^\/api\/(v1\.3\/(machine|containers)|v2\.0\/(machine|spec|stats|ps))(\/[^/]+)*\/?$/.test(path);
}

const pieces = fc.constantFrom(
  '..', '.', '%2e%2e', '%2E', '.%2e', '%2e.', '%2f', '%2F', '%5c', '\\', '', '%00', '%zz', '%', '%252e%252e', '%c0%ae', ';',
  'exec', 'containerLogs', 'run', 'attach', 'portForward', 'pods', 'metrics', 'configz', 'logs', 'healthz', 'default', 'web', 'main',
  'trpc', 'socket.io', 'api', 'agents', 'v1.3', 'v2.0', 'machine', 'stats', 'ps', 'node.get', 'gc.containers', 'node.get,gc.images',
  '__proto__', 'a%40b', '%C3%A9', 'x?y', 'x#y', '*',
);
const prefix = fc.constantFrom('', '/trpc', '/socket.io', '/api', '/api/v1.3', '/api/v2.0', '/agents/default', '/agents/b', '/agents/..', '/sign-in', '/gc');
const valid = fc.constantFrom(
  '/trpc/node.get', '/trpc/pods.list,node.get?batch=1&input=%7B%7D', '/trpc/gc.containers', '/socket.io/?EIO=4&transport=polling',
  '/api/v1.3/machine', '/agents/default/api/v2.0/stats/kubepods?count=1', '/agents/default/trpc/node.get', '/api/v2.0/ps/',
  '/containerLogs/default/web/main?tailLines=5', '/agents/default/containerLogs/default/web/main?follow=x',
);
const mangled = fc
  .tuple(prefix, fc.array(fc.oneof(pieces, fc.stringMatching(/^[!-~]{0,6}$/)), { maxLength: 6 }), fc.constantFrom('', '?command=id&stdout=1', '?EIO=4&transport=polling', '?batch=1&input=%7B%7D', '?token=x', '?a=%zz'))
  .map(([p, segs, q]) => `${p}/${segs.join('/')}${q}`.replace(/ /g, '%20'));
/** Valid targets, mangled ones, and valid ones with random pieces spliced in. */
const target = fc.oneof(
  { arbitrary: valid, weight: 2 },
  { arbitrary: mangled, weight: 3 },
  { arbitrary: fc.tuple(valid, pieces, fc.nat()).map(([v, p, i]) => { const parts = v.split('/'); parts.splice(1 + (i % parts.length), 0, p); return parts.join('/'); }), weight: 2 },
);
const headers = fc.record(
  {
    origin: fc.oneof({ arbitrary: fc.constant('SELF'), weight: 3 }, fc.constantFrom('http://evil.example', 'null', 'http://127.0.0.1:1')),
    'sec-fetch-site': fc.oneof({ arbitrary: fc.constant('same-origin'), weight: 3 }, fc.constantFrom('same-site', 'cross-site', 'none')),
    'content-type': fc.constantFrom('application/json', 'multipart/form-data; boundary=x', 'text/plain', 'application/x-www-form-urlencoded'),
    'x-nodelet-csrf': fc.constant('1'),
    'x-forwarded-host': fc.constant('evil.example'),
  },
  { requiredKeys: [] },
);
const cred = fc.oneof({ arbitrary: fc.constantFrom('session', 'bearer'), weight: 3 }, fc.constantFrom('none', 'bad bearer'));
const method = fc.oneof({ arbitrary: fc.constant('GET'), weight: 5 }, { arbitrary: fc.constant('POST'), weight: 2 }, fc.constantFrom('HEAD', 'PUT', 'DELETE', 'OPTIONS'));
const upgradeToo = fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, fc.constant(true));

test('fuzzed console requests: never 5xx, never a stack, nothing outside the allow-list reaches the agent', async () => {
  const self = `http://127.0.0.1:${ctx.s.port}`;
  await fc.assert(
    fc.asyncProperty(method, target, headers, cred, upgradeToo, async (method, t, h, c, upgrade) => {
      const hs: Record<string, string> = {};
      for (const [k, v] of Object.entries(h)) hs[k] = v === 'SELF' ? self : v;
      if (c === 'session') hs.cookie = ctx.cookie;
      if (c === 'bearer') hs.authorization = `Bearer ${TOKENS.admin}`;
      if (c === 'bad bearer') hs.authorization = 'Bearer bad-token-zzzzzzzzzzzz';
      const before = ctx.s.agentSeen.length;
      const r = await rawRequest(ctx.s.port, { method: upgrade ? 'GET' : method, target: t, headers: upgrade ? upgradeHeaders(hs) : hs, ...(method === 'POST' && !upgrade ? { body: '{}' } : {}), headOnly: true });
      assert.ok(r.status < 500 && r.status >= 100, `${method} ${t} → ${r.status} ${r.body.slice(0, 200)}`);
      assert.doesNotMatch(r.body, /\n\s+at |\/work\/|\/tmp\//, `${t}: stack or host path in the response`);
      for (const seen of ctx.s.agentSeen.slice(before)) assert.ok(allowedAtAgent(seen), `${method} ${t} reached the agent as ${seen}`);
    }),
    { numRuns: 400 },
  );
  // Not vacuous: a good share of the generated requests were allowed and forwarded.
  console.log(`fuzz: ${ctx.s.agentSeen.length} of 400 requests reached the agent`);
  assert.ok(ctx.s.agentSeen.length >= 10, `only ${ctx.s.agentSeen.length} requests reached the agent`);
});
