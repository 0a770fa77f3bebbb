// node.k8s.io/v1 RuntimeClass in the double, through @kubernetes/client-node as kubectl and the kubelet use it:
// cluster-scoped create / get / list / watch / delete; a node may read them (RBAC's system:node role) but not
// write; ValidateRuntimeClass / ValidateRuntimeClassUpdate (pkg/apis/node/validation at v1.28) with the API
// server's messages; the RuntimeClass admission plugin on pod create (plugin/pkg/admission/runtimeclass).
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { CoreV1Api, KubeConfig, NodeV1Api, Watch, type V1Pod, type V1RuntimeClass } from '@kubernetes/client-node';
import { startApiServerDouble, type ApiServerDoubleOptions } from '../server.ts';
import { rawRequest, statusOf, waitFor } from '../testing/wait.ts';

const rc = (name: string, handler: string, extra: Partial<V1RuntimeClass> = {}): V1RuntimeClass => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler, ...extra });

/** A double (stopped after the test) and clients: the node's kubeconfig, the admin's node.k8s.io and core APIs. */
async function setup(t: TestContext, opts: ApiServerDoubleOptions = {}) {
  const double = await startApiServerDouble(opts);
  t.after(() => double.stop());
  const load = (path: string) => {
    const k = new KubeConfig();
    k.loadFromFile(path);
    return k;
  };
  const adminKc = load(double.adminKubeconfig());
  return { double, nodeKc: load(double.kubeconfigFor('node-1')), admin: adminKc.makeApiClient(NodeV1Api), core: adminKc.makeApiClient(CoreV1Api) };
}

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return statusOf(e);
  }
  return assert.fail('expected the request to fail');
}

test('RuntimeClass: create, get, list and watch as a node; the node cannot write them', async (t) => {
  const { double, nodeKc, admin } = await setup(t, { authorizer: 'node' });
  const node = nodeKc.makeApiClient(NodeV1Api);
  const made = await admin.createRuntimeClass({ body: rc('sandboxed', 'userns', { overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } }) });
  assert.equal(made.metadata?.namespace, undefined, 'cluster-scoped');
  assert.ok(made.metadata?.uid && made.metadata.resourceVersion);
  const list = await node.listRuntimeClass();
  assert.deepEqual(list.items.map((x) => [x.metadata?.name, x.handler, x.overhead?.podFixed?.memory]), [['sandboxed', 'userns', '120Mi']]);
  assert.equal((await node.readRuntimeClass({ name: 'sandboxed' })).handler, 'userns');
  const seen: string[] = [];
  const ctl = await new Watch(nodeKc).watch('/apis/node.k8s.io/v1/runtimeclasses', { resourceVersion: list.metadata?.resourceVersion }, (type, obj: V1RuntimeClass) => seen.push(`${type} ${obj.metadata?.name} ${obj.handler}`), () => {});
  t.after(() => ctl.abort());
  await admin.createRuntimeClass({ body: rc('gvisor', 'runsc') });
  await admin.deleteRuntimeClass({ name: 'gvisor' });
  await waitFor(() => seen.length === 2, 'two watch events');
  assert.deepEqual(seen, ['ADDED gvisor runsc', 'DELETED gvisor runsc']);
  const denied = await failure(node.createRuntimeClass({ body: rc('mine', 'runc') }));
  assert.equal(denied.code, 403);
  const missing = await failure(node.readRuntimeClass({ name: 'gvisor' }));
  assert.deepEqual([missing.code, missing.message], [404, 'runtimeclasses.node.k8s.io "gvisor" not found']);
  // upstream runtimeclass.go "should support RuntimeClasses API operations": 409 on a second create, merge
  // patch, label-selected list and deletecollection.
  assert.equal((await failure(admin.createRuntimeClass({ body: rc('sandboxed', 'userns') }))).code, 409);
  const patched = await rawRequest(double, 'PATCH', '/apis/node.k8s.io/v1/runtimeclasses/sandboxed', { metadata: { annotations: { patched: 'true' }, labels: { test: 'ops' } } }, { 'content-type': 'application/merge-patch+json' });
  assert.deepEqual([patched.status, patched.json.metadata.annotations, patched.json.handler], [200, { patched: 'true' }, 'userns']);
  await admin.createRuntimeClass({ body: { ...rc('second', 'runc'), metadata: { name: 'second', labels: { test: 'ops' } } } });
  assert.equal((await admin.listRuntimeClass({ labelSelector: 'test=ops' })).items.length, 2);
  const gone = await rawRequest(double, 'DELETE', '/apis/node.k8s.io/v1/runtimeclasses?labelSelector=test%3Dops');
  assert.equal(gone.status, 200, gone.text);
  assert.deepEqual((await admin.listRuntimeClass()).items, []);
  const disc = await rawRequest(double, 'GET', '/apis/node.k8s.io/v1');
  assert.deepEqual(disc.json.resources.map((r: { name: string; namespaced: boolean; kind: string }) => [r.name, r.namespaced, r.kind]), [['runtimeclasses', false, 'RuntimeClass']]);
});

test('RuntimeClass validation: handler a DNS-1123 label, overhead not negative, handler immutable', async (t) => {
  const { admin } = await setup(t);
  const label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  const cases: Array<[string, V1RuntimeClass, string]> = [
    ['empty handler', rc('a', ''), `RuntimeClass.node.k8s.io "a" is invalid: handler: Invalid value: "": ${label}`],
    ['handler with a dot', rc('b', 'run.sc'), `RuntimeClass.node.k8s.io "b" is invalid: handler: Invalid value: "run.sc": ${label}`],
    ['negative overhead', rc('c', 'runc', { overhead: { podFixed: { memory: '-1' } } }), 'RuntimeClass.node.k8s.io "c" is invalid: overhead.limits[memory]: Invalid value: "-1": must be greater than or equal to 0'],
  ];
  for (const [name, body, message] of cases) {
    const s = await failure(admin.createRuntimeClass({ body }));
    assert.deepEqual([s.code, s.reason, s.message], [422, 'Invalid', message], name);
  }
  await admin.createRuntimeClass({ body: rc('kata', 'kata-fc') });
  const s = await failure(admin.replaceRuntimeClass({ name: 'kata', body: rc('kata', 'kata-qemu') }));
  assert.deepEqual([s.code, s.message], [422, 'RuntimeClass.node.k8s.io "kata" is invalid: handler: Invalid value: "kata-qemu": field is immutable']);
  const labelled = await admin.replaceRuntimeClass({ name: 'kata', body: { ...rc('kata', 'kata-fc'), metadata: { name: 'kata', labels: { a: 'b' } } } });
  assert.equal(labelled.metadata?.labels?.a, 'b', 'other fields may change');
});

test('RuntimeClass admission on pod create: class must exist, its podFixed overhead becomes spec.overhead', async (t) => {
  const { admin, core } = await setup(t);
  await admin.createRuntimeClass({ body: rc('kata-fc', 'kata-fc', { overhead: { podFixed: { memory: '120Mi', cpu: '250m' } } }) });
  await admin.createRuntimeClass({ body: rc('plain', 'runc') });
  const pod = (name: string, runtimeClassName?: string, overhead?: Record<string, string>): V1Pod => ({
    metadata: { name, namespace: 'default' },
    spec: { ...(runtimeClassName ? { runtimeClassName } : {}), ...(overhead ? { overhead } : {}), containers: [{ name: 'c', image: 'busybox' }] },
  });
  const made = await core.createNamespacedPod({ namespace: 'default', body: pod('test-pod', 'kata-fc') });
  assert.deepEqual(made.spec?.overhead, { memory: '120Mi', cpu: '250m' });
  const same = await core.createNamespacedPod({ namespace: 'default', body: pod('same', 'kata-fc', { cpu: '0.25', memory: '120Mi' }) });
  assert.ok(same.spec?.overhead, 'an equal overhead (by value) is accepted');
  assert.equal((await core.createNamespacedPod({ namespace: 'default', body: pod('plain', 'plain') })).spec?.overhead, undefined);
  // upstream "should reject a Pod requesting a deleted RuntimeClass": the admission reads the class at create time.
  await admin.createRuntimeClass({ body: rc('delete-me', 'runc') });
  await admin.deleteRuntimeClass({ name: 'delete-me' });
  const cases: Array<[V1Pod, string]> = [
    [pod('deleted', 'delete-me'), 'pods "deleted" is forbidden: pod rejected: RuntimeClass "delete-me" not found'],
    [pod('nope', 'missing'), 'pods "nope" is forbidden: pod rejected: RuntimeClass "missing" not found'],
    [pod('other', 'kata-fc', { memory: '1Gi' }), `pods "other" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`],
    [pod('bare', undefined, { memory: '1Gi' }), 'pods "bare" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
    [pod('plain2', 'plain', { memory: '1Gi' }), 'pods "plain2" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
  ];
  for (const [body, message] of cases) {
    const s = await failure(core.createNamespacedPod({ namespace: 'default', body }));
    assert.deepEqual([s.code, s.reason, s.message], [403, 'Forbidden', message], body.metadata?.name ?? '');
  }
});
