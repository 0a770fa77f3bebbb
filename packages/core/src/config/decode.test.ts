import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePodOrList, decodeSinglePod } from './decode.ts';
import { defaultPullPolicy } from './defaults.ts';

const SRC = { kind: 'file' as const, id: '/etc/kubernetes/manifests/web.yaml', nodeName: 'Node1' };
const WEB = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: { app: web }
spec:
  containers:
  - name: app
    image: nodelet.local/host:latest
    ports: [{ containerPort: 8080 }]
    readinessProbe: { httpGet: { port: 8080 } }
    resources: { limits: { cpu: 100m } }
`;

test('static pod defaults', () => {
  const r = decodeSinglePod(WEB, SRC);
  assert.ok(r.ok, !r.ok ? r.message : '');
  const p = r.pods[0]!;
  assert.equal(p.metadata?.name, 'web-node1');
  assert.equal(p.metadata?.namespace, 'default');
  assert.match(p.metadata?.uid ?? '', /^[0-9a-f]{32}$/);
  assert.equal(p.metadata?.annotations?.['kubernetes.io/config.hash'], p.metadata?.uid);
  assert.equal(p.metadata?.annotations?.['kubernetes.io/config.source'], 'file');
  assert.equal(p.spec?.nodeName, 'Node1');
  assert.deepEqual(p.spec?.tolerations, [{ operator: 'Exists', effect: 'NoExecute' }]);
  assert.equal(p.spec?.restartPolicy, 'Always');
  assert.equal(p.spec?.terminationGracePeriodSeconds, 30);
  assert.equal(p.spec?.dnsPolicy, 'ClusterFirst');
  assert.equal(p.status?.phase, 'Pending');
  const c = p.spec!.containers[0]!;
  assert.equal(c.imagePullPolicy, 'Always');
  assert.equal(c.terminationMessagePath, '/dev/termination-log');
  assert.equal(c.terminationMessagePolicy, 'File');
  assert.equal(c.ports?.[0]?.protocol, 'TCP');
  assert.deepEqual(c.readinessProbe, {
    httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
    timeoutSeconds: 1,
    periodSeconds: 10,
    successThreshold: 1,
    failureThreshold: 3,
  });
  assert.deepEqual(c.resources?.requests, { cpu: '100m' }, 'requests default to limits');
});

test('UID is stable for the same content, file and node; differs otherwise', () => {
  const uid = (text: string, src = SRC) => {
    const r = decodeSinglePod(text, src);
    assert.ok(r.ok);
    return r.pods[0]!.metadata!.uid;
  };
  assert.equal(uid(WEB), uid(WEB));
  assert.notEqual(uid(WEB), uid(WEB.replace('8080 }]', '8081 }]')));
  assert.notEqual(uid(WEB), uid(WEB, { ...SRC, id: '/other.yaml' }));
  assert.notEqual(uid(WEB), uid(WEB, { ...SRC, nodeName: 'node2' }));
  assert.equal(uid(WEB.replace('  name: web\n', '  name: web\n  uid: given\n')), 'given');
});

test('JSON manifests work too', () => {
  const r = decodeSinglePod(JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'j', namespace: 'kube-system' }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } }), SRC);
  assert.ok(r.ok);
  assert.equal(r.pods[0]!.metadata?.namespace, 'kube-system');
  assert.equal(r.pods[0]!.spec?.containers[0]?.imagePullPolicy, 'IfNotPresent');
});

const failures: Array<[string, string, RegExp]> = [
  ['not yaml', 'kind: Pod\n  bad: [', /^error converting YAML to JSON/],
  ['kind missing', 'apiVersion: v1\nmetadata: { name: x }', /^Object 'Kind' is missing/],
  ['wrong kind', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: x }', /kind "Deployment" is not a Pod/],
  ['no name', 'apiVersion: v1\nkind: Pod\nspec: { containers: [{ name: c, image: x }] }', /metadata\.name: Required value/],
  ['invalid', 'apiVersion: v1\nkind: Pod\nmetadata: { name: x }\nspec: { containers: [] }', /^invalid pod: \[spec\.containers: Required value\]$/],
  ['scalar', '42', /couldn't parse as pod/],
];
for (const [name, text, re] of failures) {
  test(`decode failure: ${name}`, () => {
    const r = decodeSinglePod(text, SRC);
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : '', re);
  });
}

test('PodList and empty bodies', () => {
  const list = { apiVersion: 'v1', kind: 'PodList', items: [{ metadata: { name: 'a' }, spec: { containers: [{ name: 'c', image: 'x' }] } }, { metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'x' }] } }] };
  const r = decodePodOrList(JSON.stringify(list), { kind: 'http', id: 'http://h/pods', nodeName: 'n' });
  assert.ok(r.ok);
  assert.deepEqual(r.pods.map((p) => [p.metadata?.name, p.metadata?.annotations?.['kubernetes.io/config.source']]), [
    ['a-n', 'http'],
    ['b-n', 'http'],
  ]);
  assert.deepEqual(decodePodOrList('', { kind: 'http', id: 'http://h/pods', nodeName: 'n' }), {
    ok: false,
    message: 'zero-length data received from http://h/pods',
  });
});

test('what `kubectl run web --image=busybox --dry-run=client -o yaml` writes is admitted (nulls and empty objects)', () => {
  const text = `apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: null
  labels:
    run: web
  name: web
spec:
  containers:
  - image: busybox
    name: web
    resources: {}
  dnsPolicy: ClusterFirst
  restartPolicy: Always
status: {}
`;
  const r = decodeSinglePod(text, SRC);
  assert.ok(r.ok, !r.ok ? r.message : '');
  assert.equal(r.pods[0]!.metadata?.creationTimestamp, undefined);
  const ts = decodeSinglePod(`%YAML 1.1\n---\n${text.replace('creationTimestamp: null', 'creationTimestamp: 2026-01-02T03:04:05Z')}`, SRC);
  assert.ok(ts.ok, !ts.ok ? ts.message : '');
  assert.equal(String(ts.pods[0]!.metadata?.creationTimestamp), '2026-01-02T03:04:05Z', 'a YAML 1.1 timestamp is read as its RFC 3339 string');
});

test('odd YAML (a collection as a map key) writes no process warning to the agent\'s stderr', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    const r = decodeSinglePod('apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  ? [a, b]\n  : c\n', SRC);
    assert.equal(r.ok, false);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  assert.deepEqual(warnings, []);
});

test('YAML anchors and << merge keys', () => {
  const text = `apiVersion: v1
kind: Pod
metadata: {name: m}
spec:
  containers:
  - &base {name: a, image: busybox, command: [sleep, '1']}
  - <<: *base
    name: b
`;
  const r = decodeSinglePod(text, SRC);
  assert.ok(r.ok, !r.ok ? r.message : '');
  assert.deepEqual(r.pods[0]!.spec?.containers.map((c) => [c.name, c.image, c.command]), [['a', 'busybox', ['sleep', '1']], ['b', 'busybox', ['sleep', '1']]]);
});

test('a long list of field errors is cut after 20', () => {
  const containers = Array.from({ length: 25 }, (_, i) => ({ name: `c${i}`, image: i }));
  const r = decodeSinglePod(JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { containers } }), SRC);
  assert.equal(r.ok, false);
  const message = !r.ok ? r.message : '';
  assert.equal(message.match(/Invalid value/g)?.length, 20);
  assert.ok(message.endsWith(', and 5 more errors]'), message.slice(-80));
});

test('pull policy defaults', () => {
  const cases: Array<[string, string]> = [
    ['busybox', 'Always'],
    ['busybox:latest', 'Always'],
    ['busybox:1.36', 'IfNotPresent'],
    ['localhost:5000/app', 'Always'],
    ['localhost:5000/app:v1', 'IfNotPresent'],
    ['app@sha256:abcd', 'IfNotPresent'],
  ];
  for (const [image, want] of cases) assert.equal(defaultPullPolicy(image), want, image);
});

test('JSON text is decoded as JSON (apimachinery yaml.ToJSON passes text with a `{` prefix through): the same pod as its YAML, a repeated key keeps its last value as Go json does; text that only looks like JSON still decodes as YAML', () => {
  const json = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nodelet.local/host:latest', ports: [{ containerPort: 8080 }], readinessProbe: { httpGet: { port: 8080 } }, resources: { limits: { cpu: '100m' } } }] } });
  const fromJson = decodeSinglePod(`\n  ${json}`, SRC);
  const fromYaml = decodeSinglePod(WEB, SRC);
  assert.ok(fromJson.ok && fromYaml.ok);
  assert.deepEqual(fromJson.pods, fromYaml.pods);
  const repeated = decodeSinglePod('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","name":"b"},"spec":{"containers":[{"name":"c","image":"i"}]}}', SRC);
  assert.ok(repeated.ok, !repeated.ok ? repeated.message : '');
  assert.equal(repeated.pods[0]?.metadata?.name, 'b-node1');
  const flow = decodeSinglePod('{apiVersion: v1, kind: Pod, metadata: {name: f}, spec: {containers: [{name: c, image: i}]}}', SRC);
  assert.ok(flow.ok, !flow.ok ? flow.message : '');
  assert.equal(flow.pods[0]?.metadata?.name, 'f-node1');
  const broken = decodeSinglePod('{"apiVersion": "v1", "kind": ', SRC);
  assert.ok(!broken.ok);
  assert.match(broken.message, /^error converting YAML to JSON: /);
});
