import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appRouter } from '@nodelet/agent/testing';
import { agentRoute, isApiPath, PROCEDURES } from './agent-routes.ts';

const agents = new Set(['default', 'b']);
const route = (path: string, method = 'GET') => agentRoute(path, path, method, agents);

test('PROCEDURES is exactly the agent AppRouter (name and type)', () => {
  const procs = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def.procedures;
  assert.deepEqual(Object.fromEntries(Object.entries(procs).map(([k, v]) => [k, v._def.type])), PROCEDURES);
});

test('agentRoute: what apps/web uses is forwarded, by the right method', () => {
  const ok: Array<[string, string, string, string]> = [
    ['/trpc/node.get', 'GET', 'default', 'trpc-read'],
    ['/trpc/pods.list,node.get', 'GET', 'default', 'trpc-read'],
    ['/trpc/lifecycle.onEvent', 'GET', 'default', 'trpc-read'],
    ['/trpc/gc.containers', 'POST', 'default', 'trpc-mutation'],
    ['/trpc/gc.images,gc.containers', 'POST', 'default', 'trpc-mutation'],
    ['/socket.io/', 'GET', 'default', 'socket.io'],
    ['/socket.io/', 'POST', 'default', 'socket.io'],
    ['/api/v1.3/machine', 'GET', 'default', 'cadvisor'],
    ['/api/v2.0/stats/kubepods/pod1', 'GET', 'default', 'cadvisor'],
    ['/agents/b/trpc/node.get', 'GET', 'b', 'trpc-read'],
    ['/agents/b/socket.io/', 'GET', 'b', 'socket.io'],
    ['/agents/default/api/v2.0/ps', 'HEAD', 'default', 'cadvisor'],
    ['/containerLogs/default/web/main', 'GET', 'default', 'logs'],
    ['/agents/b/containerLogs/kube-system/etcd-n1/etcd', 'GET', 'b', 'logs'],
  ];
  for (const [path, method, agent, kind] of ok) {
    const r = route(path, method);
    assert.ok(r.ok, `${method} ${path}: ${r.ok ? '' : r.reason}`);
    assert.deepEqual([r.agent, r.kind], [agent, kind], path);
  }
  const b = route('/agents/b/trpc/node.get');
  assert.ok(b.ok && b.path === '/trpc/node.get');
});

test('agentRoute: everything else is 404 (or 405 for a wrong method)', () => {
  const refused: Array<[string, string, number]> = [
    ['/exec/default/web/main', 'GET', 404], ['/containerLogs/default/web', 'GET', 404], ['/containerLogs/default/web/main/x', 'GET', 404],
    ['/containerLogs/default/web/main', 'POST', 405], ['/containerLogs/default/web/main', 'DELETE', 405], ['/containerLogs', 'GET', 404], ['/run/default/web/main', 'POST', 404],
    ['/attach/a/b/c', 'GET', 404], ['/portForward/a/b', 'GET', 404], ['/pods', 'GET', 404], ['/metrics', 'GET', 404],
    ['/stats/summary', 'GET', 404], ['/logs/', 'GET', 404], ['/healthz', 'GET', 404], ['/configz', 'GET', 404],
    ['/trpc/nope.get', 'GET', 404], ['/trpc/node.get/x', 'GET', 404], ['/trpc', 'GET', 404], ['/trpc/__proto__', 'GET', 404],
    ['/api/v1.0/machine', 'GET', 404], ['/api/v2.0/events', 'GET', 404], ['/api/exec', 'GET', 404], ['/socket.io/x', 'GET', 404],
    ['/agents/c/trpc/node.get', 'GET', 404], ['/agents/B/trpc/node.get', 'GET', 404], ['/agents/b/exec/a/b/c', 'GET', 404],
    ['/trpc/gc.containers', 'GET', 405], ['/trpc/node.get', 'POST', 405], ['/trpc/node.get,gc.images', 'POST', 405],
    ['/api/v1.3/machine', 'POST', 405], ['/socket.io/', 'PUT', 405],
    [`/trpc/${Array(33).fill('node.get').join(',')}`, 'GET', 404],
  ];
  for (const [path, method, status] of refused) {
    const r = route(path, method);
    assert.equal(r.ok, false, `${method} ${path}`);
    if (!r.ok) assert.equal(r.status, status, `${method} ${path}`);
  }
});

test('isApiPath: the proxied prefixes answer JSON, pages do not', () => {
  for (const p of ['/trpc/x', '/socket.io/', '/api/v1.3/machine', '/containerLogs/a/b/c', '/agents/b/trpc/x', '/agents.json', '/api']) assert.equal(isApiPath(p), true, p);
  for (const p of ['/', '/gc', '/agents/b', '/pods/default/web', '/apix', '/containers/api/v1.3']) assert.equal(isApiPath(p), false, p);
});
