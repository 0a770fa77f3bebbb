// The double refuses the pods a real API server refuses: 422 Invalid with apimachinery's Status (one cause per
// field error) on create and update, 400 for fields of the wrong type; `kubectl create` prints what it prints
// against a real cluster. Expected texts are apimachinery's (validation messages, errors.NewInvalid,
// utilerrors.Aggregate) and kubectl's (cmdutil.CheckErr: "The <Kind> <name> is invalid: ...").
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FakeClock } from '@nodelet/core/testing';
import type { KubeObject } from '../resources.ts';
import { startApiServerDouble } from '../server.ts';
import { thrownStatus } from '../testing/thrown-status.ts';
import { fieldError } from './pod-validation.ts';
import { DoubleStore } from './double-store.ts';
import { Registry } from './registry.ts';

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

function setup() {
  const reg = new Registry(new FakeClock(Date.UTC(2026, 0, 1)));
  reg.create(reg.resource('', 'namespaces'), undefined, { metadata: { name: 'default' } });
  return { reg, pods: reg.resource('', 'pods') };
}

const podWith = (spec: Record<string, unknown>, name = 'x'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

const status = thrownStatus;

test('a container named "../x" is refused with 422 Invalid and the apimachinery Status', () => {
  const { reg, pods } = setup();
  const s = status(() => reg.create(pods, 'default', podWith({ containers: [{ name: '../x', image: 'busybox' }] })));
  const body = `Invalid value: "../x": ${LABEL_MSG}`;
  assert.deepEqual(s, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Pod "x" is invalid: spec.containers[0].name: ${body}`,
    reason: 'Invalid',
    details: { name: 'x', kind: 'Pod', causes: [{ reason: 'FieldValueInvalid', message: body, field: 'spec.containers[0].name' }] },
    code: 422,
  });
  assert.equal(reg.tryGet(pods, 'default', 'x'), undefined, 'nothing stored');
});

test('several field errors: every one a cause, the message an aggregate "[a, b]"; the metadata is checked with the spec', () => {
  const { reg, pods } = setup();
  const bad = podWith(
    {
      volumes: [{ name: '../../etc', hostPath: { path: '/var/../etc' } }],
      containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: '../../etc', mountPath: '/h' }] }],
    },
    'Bad_Name',
  );
  const s = status(() => reg.create(pods, 'default', bad));
  assert.equal(s.code, 422);
  const causes = s.details?.causes ?? [];
  const has = (field: string, reason: string, message: string) =>
    assert.ok(causes.some((c) => c.field === field && c.reason === reason && c.message === message), `${field} ${reason} ${message} in ${JSON.stringify(causes)}`);
  has('spec.volumes[0].name', 'FieldValueInvalid', `Invalid value: "../../etc": ${LABEL_MSG}`);
  has('spec.volumes[0].hostPath.path', 'FieldValueInvalid', `Invalid value: "/var/../etc": must not contain '..'`);
  has('spec.containers[0].volumeMounts[0].name', 'FieldValueNotFound', 'Not found: "../../etc"');
  assert.ok(causes.some((c) => c.field === 'metadata.name' && c.reason === 'FieldValueInvalid'));
  assert.equal(s.message, `Pod "Bad_Name" is invalid: [${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}]`);
});

test('an invalid pod whose name is taken is Invalid, not AlreadyExists (validation runs before storage)', () => {
  const { reg, pods } = setup();
  reg.create(pods, 'default', podWith({}));
  assert.equal(status(() => reg.create(pods, 'default', podWith({ containers: [{ name: 'C', image: 'busybox' }] }))).code, 422);
  assert.equal(status(() => reg.create(pods, 'default', podWith({}))).code, 409);
});

test('updates are validated too: an invalid label or an empty image is 422, the stored pod unchanged', () => {
  const { reg, pods } = setup();
  const p = reg.create(pods, 'default', podWith({}));
  const label = status(() => reg.patch(pods, 'default', 'x', 'application/merge-patch+json', { metadata: { labels: { app: '-bad' } } }));
  assert.equal(label.code, 422);
  assert.equal(label.details?.causes?.[0]?.field, 'metadata.labels');
  const image = status(() => reg.patch(pods, 'default', 'x', 'application/json-patch+json', [{ op: 'replace', path: '/spec/containers/0/image', value: '' }]));
  assert.deepEqual(image.details?.causes, [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }]);
  assert.equal(reg.get(pods, 'default', 'x').metadata.resourceVersion, p.metadata.resourceVersion);
});

test('a field of the wrong JSON type is a 400 BadRequest from the decoder (before defaulting), nothing stored', () => {
  const { reg, pods } = setup();
  for (const spec of [{ containers: 'c' }, { containers: [null] }, { containers: [{ name: 7, image: 'busybox' }] }]) {
    const s = status(() => reg.create(pods, 'default', podWith(spec)));
    assert.equal(s.code, 400, JSON.stringify(spec));
    assert.equal(s.reason, 'BadRequest');
    assert.match(s.message, /^Pod in version "v1" cannot be handled as a Pod: spec\.containers/);
  }
  assert.equal(reg.list(pods).items.length, 0);
});

test('field errors: the path, the field.ErrorType and the ErrorBody of each kind of line', () => {
  assert.deepEqual(fieldError('spec.containers[0].name: Duplicate value: "c"'), { field: 'spec.containers[0].name', type: 'FieldValueDuplicate', message: 'Duplicate value: "c"' });
  assert.deepEqual(fieldError('spec.restartPolicy: Unsupported value: "x": supported values: "Always"'), { field: 'spec.restartPolicy', type: 'FieldValueNotSupported', message: 'Unsupported value: "x": supported values: "Always"' });
  assert.deepEqual(fieldError('spec.volumes[0].emptyDir: Forbidden: may not specify more than 1 volume type'), { field: 'spec.volumes[0].emptyDir', type: 'FieldValueForbidden', message: 'Forbidden: may not specify more than 1 volume type' });
  assert.deepEqual(fieldError('metadata.annotations: Too long: must have at most 262144 bytes'), { field: 'metadata.annotations', type: 'FieldValueTooLong', message: 'Too long: must have at most 262144 bytes' });
  assert.deepEqual(fieldError('spec: Required value'), { field: 'spec', type: 'FieldValueRequired', message: 'Required value' });
});

const KUBECTL = '/usr/bin/kubectl';
const noKubectl = !existsSync(KUBECTL) && 'kubectl is not installed';
if (noKubectl && process.env.CI === 'true') throw new Error(`kubectl create against the double cannot run under CI: ${noKubectl}`);

test('kubectl create -f of such a pod prints the error a real cluster prints', { skip: noKubectl }, async (t) => {
  const api = await startApiServerDouble();
  const dir = mkdtempSync(join(tmpdir(), 'double-pod-validation-'));
  t.after(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const manifest = join(dir, 'pod.yaml');
  writeFileSync(manifest, 'apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers: [{name: "../x", image: busybox}]\n');
  // --validate=false: the double serves no OpenAPI document for kubectl's client-side schema check.
  const r = await new Promise<{ code: number; out: string; err: string }>((resolve) =>
    execFile(KUBECTL, ['--kubeconfig', api.adminKubeconfig(), 'create', '--validate=false', '-f', manifest], { timeout: 60_000 }, (e, out, err) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? -1) : 0, out, err })),
  );
  assert.deepEqual(r, { code: 1, out: '', err: `The Pod "x" is invalid: spec.containers[0].name: Invalid value: "../x": ${LABEL_MSG}\n` });
  assert.equal(api.store.get('pods', 'default', 'x'), undefined);
});

test('createUnvalidated stores a pod the API server refuses (defaulted), for tests of the kubelet\'s own checks', () => {
  const { reg, pods } = setup();
  const bad = podWith({ containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'nope', mountPath: '/nope' }] }] });
  assert.equal(status(() => new DoubleStore(reg).create(bad)).code, 422);
  const stored = new DoubleStore(reg).createUnvalidated(bad);
  assert.equal(stored.spec.restartPolicy, 'Always');
  assert.equal(reg.get(pods, 'default', 'x').metadata.uid, stored.metadata.uid);
});

test('probes and hooks are stored defaulted (SetDefaults_Probe, SetDefaults_HTTPGetAction), a hostNetwork port gets its hostPort (SetDefaults_Pod); a 0 period is accepted as the real API server does', () => {
  const { reg, pods } = setup();
  const probe = { httpGet: { port: 8080 }, periodSeconds: 0 };
  const out = reg.create(pods, 'default', podWith({
    hostNetwork: true,
    containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 8080 }], readinessProbe: probe, lifecycle: { preStop: { httpGet: { port: 8080 } } } }],
  }));
  const c = out.spec.containers[0];
  assert.deepEqual(c.readinessProbe, { httpGet: { port: 8080, path: '/', scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 });
  assert.deepEqual(c.lifecycle.preStop.httpGet, { port: 8080, path: '/', scheme: 'HTTP' });
  assert.deepEqual(c.ports, [{ containerPort: 8080, protocol: 'TCP', hostPort: 8080 }]);
});
