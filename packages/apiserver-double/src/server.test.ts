// Integration: @kubernetes/client-node 1.4 (the agent's client) against the apiserver double over HTTPS.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import {
  AuthenticationV1Api,
  AuthorizationV1Api,
  CoordinationV1Api,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  Watch,
  type V1Pod,
} from '@kubernetes/client-node';
import { startApiServerDouble, type ApiServerDoubleOptions } from './server.ts';
import { rawRequest, statusOf, waitFor } from './testing/wait.ts';

async function setup(t: TestContext, opts: ApiServerDoubleOptions = {}) {
  const double = await startApiServerDouble(opts);
  t.after(() => double.stop());
  const client = (path: string) => {
    const kc = new KubeConfig();
    kc.loadFromFile(path);
    return kc;
  };
  const nodeKc = client(double.kubeconfigFor('node-1'));
  const adminKc = client(double.adminKubeconfig());
  return { double, nodeKc, adminKc, core: nodeKc.makeApiClient(CoreV1Api), admin: adminKc.makeApiClient(CoreV1Api) };
}

const podBody = (name: string, nodeName?: string): V1Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nodelet.local/host:latest' }] },
});

async function rejects(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return statusOf(e);
  }
  assert.fail('expected the request to fail');
}

test('node client cert authenticates as system:node:<name>; discovery and /version answer', async (t) => {
  const { double, core, nodeKc } = await setup(t);
  const list = await core.listNamespacedPod({ namespace: 'default' });
  assert.deepEqual(list.items, []);
  assert.match(list.metadata?.resourceVersion ?? '', /^\d+$/);
  assert.equal(double.requests.at(-1)?.user, 'system:node:node-1');
  const ns = await core.listNamespace();
  assert.deepEqual(ns.items.map((n) => n.metadata?.name).sort(), ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  const disc = await rawRequest(double, 'GET', '/apis/coordination.k8s.io/v1');
  assert.equal(disc.json.kind, 'APIResourceList');
  assert.deepEqual(disc.json.resources.map((r: { name: string }) => r.name), ['leases']);
  const core1 = await rawRequest(double, 'GET', '/api/v1');
  assert.ok(core1.json.resources.some((r: { name: string }) => r.name === 'pods/status'));
  const groups = await rawRequest(double, 'GET', '/apis');
  assert.deepEqual(groups.json.groups.map((g: { name: string }) => g.name).sort(), ['authentication.k8s.io', 'authorization.k8s.io', 'certificates.k8s.io', 'coordination.k8s.io', 'events.k8s.io', 'node.k8s.io']);
  const anon = await rawRequest(double, 'GET', '/api/v1/pods', undefined, { authorization: '' });
  assert.equal(anon.status, 401);
  const { VersionApi } = await import('@kubernetes/client-node');
  const v = await nodeKc.makeApiClient(VersionApi).getCode();
  assert.equal(v.major, '1');
});

test('pod status strategic merge patch merges conditions by type; stale update → 409', async (t) => {
  const { core, admin, double } = await setup(t);
  const created = await admin.createNamespacedPod({ namespace: 'default', body: podBody('web', 'node-1') });
  assert.equal(created.status?.phase, 'Pending');
  const smp = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
  await core.patchNamespacedPodStatus(
    { name: 'web', namespace: 'default', body: { status: { phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: 'False' }] } } },
    smp,
  );
  const patched = await core.patchNamespacedPodStatus(
    {
      name: 'web',
      namespace: 'default',
      body: {
        metadata: { uid: created.metadata?.uid },
        status: { '$setElementOrder/conditions': [{ type: 'PodScheduled' }, { type: 'Ready' }], conditions: [{ type: 'Ready', status: 'True' }] },
      },
    },
    smp,
  );
  assert.deepEqual(patched.status?.conditions?.map((c) => [c.type, c.status]), [['PodScheduled', 'True'], ['Ready', 'True']]);
  const logged = double.requests.filter((r) => r.verb === 'patch' && r.subresource === 'status');
  assert.equal(logged.at(-1)?.contentType, 'application/strategic-merge-patch+json');
  assert.deepEqual((logged.at(-1)?.body as { status: { conditions: unknown[] } }).status.conditions, [{ type: 'Ready', status: 'True' }]);
  assert.equal(patched.status?.phase, 'Running');
  const wrongUid = await rejects(
    core.patchNamespacedPodStatus({ name: 'web', namespace: 'default', body: { metadata: { uid: 'recreated' }, status: { phase: 'Failed' } } }, smp),
  );
  assert.equal(wrongUid.code, 409);
  assert.match(wrongUid.message, /Precondition failed: UID in precondition: recreated, UID in object meta: /);
  const s = await rejects(core.replaceNamespacedPod({ name: 'web', namespace: 'default', body: created }));
  assert.equal(s.code, 409);
  assert.equal(s.message, 'Operation cannot be fulfilled on pods "web": the object has been modified; please apply your changes to the latest version and try again');
  const nf = await rejects(core.readNamespacedPod({ name: 'nope', namespace: 'default' }));
  assert.deepEqual([nf.code, nf.reason, nf.message], [404, 'NotFound', 'pods "nope" not found']);
  const dup = await rejects(admin.createNamespacedPod({ namespace: 'default', body: podBody('web') }));
  assert.deepEqual([dup.code, dup.reason], [409, 'AlreadyExists']);
  const merge = await core.patchNamespacedPod(
    { name: 'web', namespace: 'default', body: { metadata: { labels: { a: 'b' } } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  assert.deepEqual(merge.metadata?.labels, { a: 'b' });
  const jp = await core.patchNamespacedPod({ name: 'web', namespace: 'default', body: [{ op: 'add', path: '/metadata/labels/c', value: 'd' }] });
  assert.deepEqual(jp.metadata?.labels, { a: 'b', c: 'd' });
});

test('node create + status patch; lease create, renew and conflict; events', async (t) => {
  const { nodeKc, core } = await setup(t);
  const node = await core.createNode({
    body: { metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } }, status: { conditions: [{ type: 'Ready', status: 'False' }], addresses: [{ type: 'InternalIP', address: '127.0.0.1' }] } },
  });
  assert.equal(node.status?.conditions?.[0]?.status, 'False', 'node status is kept on create');
  const patched = await core.patchNodeStatus(
    { name: 'node-1', body: { status: { conditions: [{ type: 'Ready', status: 'True' }, { type: 'MemoryPressure', status: 'False' }] } } },
    setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
  );
  assert.deepEqual(patched.status?.conditions?.map((c) => `${c.type}=${c.status}`), ['Ready=True', 'MemoryPressure=False']);
  assert.equal(patched.status?.addresses?.[0]?.address, '127.0.0.1');
  const byName = await core.listNode({ fieldSelector: 'metadata.name=node-1' });
  assert.equal(byName.items.length, 1);

  const coord = nodeKc.makeApiClient(CoordinationV1Api);
  const lease = await coord.createNamespacedLease({
    namespace: 'kube-node-lease',
    body: { metadata: { name: 'node-1' }, spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: new Date('2026-01-01T00:00:00Z') } },
  });
  const renewed = await coord.replaceNamespacedLease({
    name: 'node-1',
    namespace: 'kube-node-lease',
    body: { ...lease, spec: { ...lease.spec, renewTime: new Date('2026-01-01T00:00:10Z') } },
  });
  assert.notEqual(renewed.metadata?.resourceVersion, lease.metadata?.resourceVersion);
  const c = await rejects(coord.replaceNamespacedLease({ name: 'node-1', namespace: 'kube-node-lease', body: lease }));
  assert.equal(c.code, 409);
  assert.match(c.message, /^Operation cannot be fulfilled on leases.coordination.k8s.io "node-1": the object has been modified/);

  await core.createNamespacedEvent({
    namespace: 'default',
    body: {
      metadata: { name: 'web.1870' },
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
      reason: 'Started',
      type: 'Normal',
      source: { component: 'kubelet', host: 'node-1' },
      message: 'Started container c',
    },
  });
  const evs = await core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=web,source=kubelet' });
  assert.deepEqual(evs.items.map((e) => e.reason), ['Started']);
  const bad = await rejects(core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.color=red' }));
  assert.deepEqual([bad.code, bad.message], [400, 'field label not supported: involvedObject.color']);
});

test('graceful deletion handshake: the pod stays with deletionTimestamp until the kubelet deletes with grace 0', async (t) => {
  const { core, admin, nodeKc } = await setup(t);
  const p = await admin.createNamespacedPod({ namespace: 'default', body: podBody('db', 'node-1') });
  const seen: string[] = [];
  const ctl = await new Watch(nodeKc).watch(
    '/api/v1/pods',
    { fieldSelector: 'spec.nodeName=node-1', resourceVersion: p.metadata?.resourceVersion },
    (type, obj: V1Pod) => seen.push(`${type} ${obj.metadata?.deletionTimestamp ? 'terminating' : 'live'}`),
    () => {},
  );
  t.after(() => ctl.abort());
  const d = await admin.deleteNamespacedPod({ name: 'db', namespace: 'default' });
  assert.ok(d.metadata?.deletionTimestamp);
  assert.equal(d.metadata?.deletionGracePeriodSeconds, 30);
  const still = await core.readNamespacedPod({ name: 'db', namespace: 'default' });
  assert.ok(still.metadata?.deletionTimestamp);
  const wrongUid = await rejects(core.deleteNamespacedPod({ name: 'db', namespace: 'default', gracePeriodSeconds: 0, body: { preconditions: { uid: 'x' } } }));
  assert.equal(wrongUid.code, 409);
  await core.deleteNamespacedPod({ name: 'db', namespace: 'default', gracePeriodSeconds: 0, body: { preconditions: { uid: p.metadata?.uid } } });
  const gone = await rejects(core.readNamespacedPod({ name: 'db', namespace: 'default' }));
  assert.equal(gone.code, 404);
  await waitFor(() => seen.length >= 2, 'watch events');
  assert.deepEqual(seen, ['MODIFIED terminating', 'DELETED terminating']);
});

test('TokenRequest + TokenReview, SubjectAccessReview by policy (recorded), 403 for an unauthorised user', async (t) => {
  const { double, admin, adminKc } = await setup(t, { tokens: { 'viewer-token': { username: 'viewer', groups: [] } } });
  await admin.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'sa1' } } });
  const tr = await admin.createNamespacedServiceAccountToken({ name: 'sa1', namespace: 'default', body: { spec: { audiences: ['api'], expirationSeconds: 3600 } } });
  const token = tr.status?.token ?? '';
  const authn = adminKc.makeApiClient(AuthenticationV1Api);
  const ok = await authn.createTokenReview({ body: { spec: { token, audiences: ['api'] } } });
  assert.equal(ok.status?.authenticated, true);
  assert.equal(ok.status?.user?.username, 'system:serviceaccount:default:sa1');
  assert.ok(ok.status?.user?.groups?.includes('system:serviceaccounts:default'));
  const wrongAud = await authn.createTokenReview({ body: { spec: { token, audiences: ['other'] } } });
  assert.equal(wrongAud.status?.authenticated, false);
  const staticTok = await authn.createTokenReview({ body: { spec: { token: 'viewer-token' } } });
  assert.equal(staticTok.status?.user?.username, 'viewer');

  const authz = adminKc.makeApiClient(AuthorizationV1Api);
  const sar = (user: string, groups: string[]) =>
    authz.createSubjectAccessReview({ body: { spec: { user, groups, resourceAttributes: { verb: 'get', resource: 'nodes', name: 'node-1' } } } });
  assert.equal((await sar('system:node:node-1', ['system:nodes'])).status?.allowed, true);
  assert.equal((await sar('viewer', [])).status?.allowed, false);
  assert.deepEqual(double.accessReviews.map((r) => [r.attributes.user, r.allowed]), [['system:node:node-1', true], ['viewer', false]]);

  const viewer = new KubeConfig();
  viewer.loadFromOptions({
    clusters: [{ name: 'c', server: double.url, caData: Buffer.from(double.ca).toString('base64') }],
    users: [{ name: 'v', token: 'viewer-token' }],
    contexts: [{ name: 'c', cluster: 'c', user: 'v' }],
    currentContext: 'c',
  });
  const f = await rejects(viewer.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'default' }));
  assert.equal(f.code, 403);
  assert.equal(f.message, 'pods is forbidden: User "viewer" cannot list resource "pods" in API group "" in the namespace "default"');
  viewer.users[0] = { name: 'v', token: 'wrong' };
  const u = await rejects(viewer.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'default' }));
  assert.equal(u.code, 401);
});

test("authorizer 'node': 403 with the real Forbidden wording for another node's lease", async (t) => {
  const { double, nodeKc } = await setup(t, { authorizer: 'node' });
  double.store.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'node-2', namespace: 'kube-node-lease' }, spec: {} });
  const coord = nodeKc.makeApiClient(CoordinationV1Api);
  const s = await rejects(coord.patchNamespacedLease({ name: 'node-2', namespace: 'kube-node-lease', body: [{ op: 'add', path: '/spec/holderIdentity', value: 'node-1' }] }));
  assert.equal(s.code, 403);
  assert.equal(
    s.message,
    'leases.coordination.k8s.io "node-2" is forbidden: User "system:node:node-1" cannot patch resource "leases" in API group "coordination.k8s.io" in the namespace "kube-node-lease": node \'node-1\' cannot patch leases node-2',
  );
  await coord.createNamespacedLease({ namespace: 'kube-node-lease', body: { metadata: { name: 'node-1' }, spec: { holderIdentity: 'node-1' } } });
});
