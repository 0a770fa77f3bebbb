// Integration at the HTTP level: paths and answers that client libraries rarely exercise.
import assert from 'node:assert/strict';
import https from 'node:https';
import { test } from 'node:test';
import { startApiServerDouble, type ApiServerDouble } from '../server.ts';
import { rawRequest } from '../testing/wait.ts';

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'i' }] } };

/** The first watch line of a streaming GET. */
function firstLine(d: ApiServerDouble, path: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = https.get(new URL(path, d.url), { ca: d.ca, headers: { authorization: `Bearer ${d.adminToken}` } }, (res) => {
      let buf = '';
      res.on('data', (c: Buffer) => {
        buf += c.toString();
        const nl = buf.indexOf('\n');
        if (nl >= 0) {
          resolve(JSON.parse(buf.slice(0, nl)));
          req.destroy();
        }
      });
    });
    req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
  });
}

test('raw API paths: binding, namespace status, legacy watch, deletecollection, events.k8s.io, errors', async (t) => {
  const d = await startApiServerDouble();
  t.after(() => d.stop());
  const cases: { name: string; method: string; path: string; body?: unknown; headers?: Record<string, string>; status: number; check?: (json: any) => void }[] = [
    { name: 'create pod', method: 'POST', path: '/api/v1/namespaces/default/pods', body: pod, status: 201 },
    {
      name: 'list items carry no kind',
      method: 'GET',
      path: '/api/v1/namespaces/default/pods',
      status: 200,
      check: (j) => {
        assert.equal(j.kind, 'PodList');
        assert.equal(j.items[0].kind, undefined);
      },
    },
    { name: 'bind', method: 'POST', path: '/api/v1/namespaces/default/pods/web/binding', body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web' }, target: { kind: 'Node', name: 'n1' } }, status: 201 },
    { name: 'bind twice', method: 'POST', path: '/api/v1/namespaces/default/pods/web/binding', body: { target: { name: 'n2' } }, status: 409 },
    { name: 'namespace status path', method: 'GET', path: '/api/v1/namespaces/default/status', status: 200, check: (j) => assert.equal(j.status.phase, 'Active') },
    { name: 'json patch test failure', method: 'PATCH', path: '/api/v1/namespaces/default/pods/web', headers: { 'content-type': 'application/json-patch+json' }, body: [{ op: 'test', path: '/metadata/name', value: 'x' }], status: 422 },
    { name: 'apply patch unsupported', method: 'PATCH', path: '/api/v1/namespaces/default/pods/web', headers: { 'content-type': 'application/apply-patch+yaml' }, body: {}, status: 415 },
    { name: 'unknown resource', method: 'GET', path: '/api/v1/namespaces/default/widgets', status: 404 },
    { name: 'configmap', method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { metadata: { name: 'cm', labels: { a: 'b' } }, data: { k: 'v' } }, status: 201 },
    { name: 'delete configmap → Success Status', method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/cm', status: 200, check: (j) => assert.deepEqual([j.kind, j.status, j.details.name], ['Status', 'Success', 'cm']) },
    { name: 'events.k8s.io create', method: 'POST', path: '/apis/events.k8s.io/v1/namespaces/default/events', body: { metadata: { name: 'e1' }, regarding: { kind: 'Pod', name: 'web' }, reason: 'Pulled', type: 'Normal', eventTime: '2026-01-01T00:00:00.000000Z', action: 'Pull', reportingController: 'nodelet', reportingInstance: 'n1' }, status: 201 },
    { name: 'events.k8s.io by regarding.name', method: 'GET', path: '/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=regarding.name%3Dweb', status: 200, check: (j) => assert.equal(j.items.length, 1) },
    { name: 'deletecollection by label', method: 'DELETE', path: '/api/v1/namespaces/default/secrets?labelSelector=x%3Dy', status: 200, check: (j) => assert.equal(j.kind, 'SecretList') },
    { name: 'TokenRequest for a missing SA (no SA controller here)', method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/default/token', body: {}, status: 404 },
    { name: 'create SA', method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'default' } }, status: 201 },
    { name: 'short TokenRequest is invalid', method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/default/token', body: { spec: { expirationSeconds: 60 } }, status: 422 },
  ];
  for (const c of cases) {
    const r = await rawRequest(d, c.method, c.path, c.body, c.headers);
    assert.equal(r.status, c.status, `${c.name}: ${r.text}`);
    c.check?.(r.json);
  }
  assert.equal(d.store.get('pods', 'default', 'web')?.spec.nodeName, 'n1');
  const ev = await firstLine(d, '/api/v1/watch/namespaces/default/pods/web');
  assert.deepEqual([ev.type, ev.object.kind, ev.object.metadata.name], ['ADDED', 'Pod', 'web']);
  assert.ok(d.requests.some((r) => r.verb === 'watch' && r.name === 'web'));
});
