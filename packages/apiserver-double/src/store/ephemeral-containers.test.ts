// The pods/ephemeralcontainers subresource as the real API server serves it. Expected texts are v1.28
// pkg/apis/core/validation/validation.go (validateEphemeralContainers, ValidatePodEphemeralContainersUpdate,
// ValidatePodCreate), the strategy's dropNonEphemeralContainerUpdates / updatePodGeneration, and what
// `kubectl debug` sends (a strategic merge patch of pods/<name>/ephemeralcontainers).
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { FakeClock } from '@nodelet/core/testing';
import type { KubeObject } from '../resources.ts';
import { startApiServerDouble } from '../server.ts';
import { rawRequest } from '../testing/wait.ts';
import { thrownStatus } from '../testing/thrown-status.ts';
import { Registry } from './registry.ts';

function setup() {
  const reg = new Registry(new FakeClock(Date.UTC(2026, 0, 1)));
  reg.create(reg.resource('', 'namespaces'), undefined, { metadata: { name: 'default' } });
  const pods = reg.resource('', 'pods');
  reg.create(pods, 'default', {
    metadata: { name: 'target' },
    spec: { nodeName: 'n1', initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'app', image: 'busybox', command: ['/bin/sleep', '10000'] }] },
  });
  const update = (ecs: unknown[], rv?: string) => {
    const cur = reg.get(pods, 'default', 'target');
    return reg.update(pods, 'default', 'target', { ...cur, metadata: { ...cur.metadata, ...(rv ? { resourceVersion: rv } : {}) }, spec: { ...cur.spec, ephemeralContainers: ecs } }, 'ephemeralcontainers');
  };
  return { reg, pods, update };
}

const debuggerEc = { name: 'debugger', image: 'busybox', command: ['sh', '-c', 'while true; do echo polo; sleep 2; done'], stdin: true, tty: true };
const invalid = (fn: () => unknown) => {
  const s = thrownStatus(fn);
  assert.equal(s.code, 422);
  assert.equal(s.reason, 'Invalid');
  return s;
};

test('an update adds the ephemeral container with the container defaults and bumps generation 1 → 2', () => {
  const { update } = setup();
  const out = update([debuggerEc]);
  assert.equal(out.metadata.generation, 2);
  assert.deepEqual(out.spec.ephemeralContainers, [
    { ...debuggerEc, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always', resources: {} },
  ]);
});

test('only spec.ephemeralContainers changes: other spec fields, labels and status sent with it are dropped', () => {
  const { reg, pods } = setup();
  const cur = reg.get(pods, 'default', 'target');
  const body: KubeObject = {
    ...cur,
    metadata: { ...cur.metadata, labels: { sneaky: 'yes' } },
    spec: { ...cur.spec, activeDeadlineSeconds: 5, containers: [{ name: 'app', image: 'nginx' }], ephemeralContainers: [debuggerEc] },
    status: { phase: 'Succeeded' },
  };
  const out = reg.update(pods, 'default', 'target', body, 'ephemeralcontainers');
  assert.equal(out.spec.activeDeadlineSeconds, undefined);
  assert.equal(out.spec.containers[0].image, 'busybox');
  assert.equal(out.metadata.labels, undefined);
  assert.equal(out.status.phase, 'Pending');
  assert.equal(out.spec.ephemeralContainers.length, 1);
});

test('a pod create carrying ephemeral containers is refused: "cannot be set on create"', () => {
  const { reg, pods } = setup();
  const s = invalid(() => reg.create(pods, 'default', { metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'busybox' }], ephemeralContainers: [debuggerEc] } }));
  assert.equal(s.message, 'Pod "x" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create');
});

test('the main resource cannot add them: pod updates may not change the spec', () => {
  const { reg, pods } = setup();
  const cur = reg.get(pods, 'default', 'target');
  const s = invalid(() => reg.update(pods, 'default', 'target', { ...cur, spec: { ...cur.spec, ephemeralContainers: [debuggerEc] } }));
  assert.match(s.message, /^Pod "target" is invalid: spec: Forbidden: pod updates may not change fields other than/);
});

test('names are unique across containers, init containers and ephemeral containers', () => {
  const { update } = setup();
  const s = invalid(() => update([{ name: 'app', image: 'busybox' }, { name: 'init', image: 'busybox' }, { name: 'd', image: 'busybox' }, { name: 'd', image: 'busybox' }]));
  assert.deepEqual(s.details?.causes, [
    { reason: 'FieldValueDuplicate', message: 'Duplicate value: "app"', field: 'spec.ephemeralContainers[0].name' },
    { reason: 'FieldValueDuplicate', message: 'Duplicate value: "init"', field: 'spec.ephemeralContainers[1].name' },
    { reason: 'FieldValueDuplicate', message: 'Duplicate value: "d"', field: 'spec.ephemeralContainers[3].name' },
  ]);
});

test('ports, resources, probes and lifecycle cannot be set; subPath neither; the target must be a (non-ephemeral) container', () => {
  const { update } = setup();
  const s = invalid(() =>
    update([
      { name: 'd1', image: 'busybox', targetContainerName: 'nope', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } } },
      { name: 'd2', image: 'busybox', livenessProbe: { exec: { command: ['true'] } }, readinessProbe: { exec: { command: ['true'] } }, startupProbe: { exec: { command: ['true'] } }, lifecycle: { preStop: { exec: { command: ['true'] } } } },
      { name: 'd3', image: 'busybox', targetContainerName: 'd1' },
    ]),
  );
  const f = 'Forbidden: cannot be set for an Ephemeral Container';
  assert.deepEqual(s.details?.causes?.map((c) => `${c.field}: ${c.message}`), [
    'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
    `spec.ephemeralContainers[0].ports: ${f}`,
    `spec.ephemeralContainers[0].resources: ${f}`,
    `spec.ephemeralContainers[1].livenessProbe: ${f}`,
    `spec.ephemeralContainers[1].readinessProbe: ${f}`,
    `spec.ephemeralContainers[1].startupProbe: ${f}`,
    `spec.ephemeralContainers[1].lifecycle: ${f}`,
    'spec.ephemeralContainers[2].targetContainerName: Not found: "d1"',
  ]);
});

test('the container checks apply: name, image, volume mounts naming a volume; subPath refused', () => {
  const { update } = setup();
  const s = invalid(() => update([{ name: 'Bad_Name', image: '' }, { name: 'd', image: 'busybox', volumeMounts: [{ name: 'nope', mountPath: '/x', subPath: 'a' }] }]));
  const fields = (s.details?.causes ?? []).map((c) => `${c.field}: ${(c.message ?? '').split(':')[0]}`);
  assert.ok(fields.includes('spec.ephemeralContainers[0].name: Invalid value'), fields.join('\n'));
  assert.ok(fields.includes('spec.ephemeralContainers[0].image: Required value'), fields.join('\n'));
  assert.ok(fields.includes('spec.ephemeralContainers[1].volumeMounts[0].name: Not found'), fields.join('\n'));
  assert.ok(fields.includes('spec.ephemeralContainers[1].volumeMounts[0].subPath: Forbidden'), fields.join('\n'));
});

test('existing ephemeral containers may be neither removed nor changed; adding a second one keeps the first', () => {
  const { update } = setup();
  update([debuggerEc]);
  const removed = invalid(() => update([]));
  assert.equal(removed.message, 'Pod "target" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be removed\n');
  const stored = setup();
  const first = stored.update([debuggerEc]).spec.ephemeralContainers[0];
  const changed = invalid(() => stored.update([{ ...first, image: 'alpine' }]));
  assert.match(changed.message, /^Pod "target" is invalid: spec\.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be changed\n/);
  const two = stored.update([first, { name: 'debugger2', image: 'agnhost', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }]);
  assert.deepEqual(two.spec.ephemeralContainers.map((e: { name: string }) => e.name), ['debugger', 'debugger2']);
  assert.equal(two.metadata.generation, 3);
});

test('static pods (mirror pods) do not support ephemeral containers', () => {
  const { reg, pods } = setup();
  reg.create(pods, 'default', { metadata: { name: 'static', annotations: { 'kubernetes.io/config.mirror': 'abc' } }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] } });
  const cur = reg.get(pods, 'default', 'static');
  const s = invalid(() => reg.update(pods, 'default', 'static', { ...cur, spec: { ...cur.spec, ephemeralContainers: [debuggerEc] } }, 'ephemeralcontainers'));
  assert.equal(s.message, 'Pod "static" is invalid: : Forbidden: static pods do not support ephemeral containers');
});

test('a stale resourceVersion is a 409 Conflict', () => {
  const { update } = setup();
  const s = thrownStatus(() => update([debuggerEc], '1'));
  assert.equal(s.code, 409);
});

async function serve(t: TestContext) {
  const double = await startApiServerDouble();
  t.after(() => double.stop());
  double.store.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] } });
  return double;
}

test('HTTP: discovery lists pods/ephemeralcontainers; GET, the strategic merge patch kubectl debug sends, PUT', async (t) => {
  const double = await serve(t);
  const disc = await rawRequest(double, 'GET', '/api/v1');
  const sub = disc.json.resources.find((r: { name: string }) => r.name === 'pods/ephemeralcontainers');
  assert.deepEqual({ kind: sub.kind, verbs: sub.verbs }, { kind: 'Pod', verbs: ['get', 'patch', 'update'] });
  const path = '/api/v1/namespaces/default/pods/web/ephemeralcontainers';
  const smp = { 'content-type': 'application/strategic-merge-patch+json' };
  const patched = await rawRequest(double, 'PATCH', path, { spec: { ephemeralContainers: [{ name: 'debugger-x1', image: 'busybox', targetContainerName: 'c', stdin: true, tty: true }] } }, smp);
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.json.kind, 'Pod');
  assert.equal(patched.json.metadata.generation, 2);
  const got = await rawRequest(double, 'GET', path);
  assert.deepEqual(got.json.spec.ephemeralContainers.map((e: { name: string }) => e.name), ['debugger-x1']);
  // A second patch merges by name: the first stays.
  const second = await rawRequest(double, 'PATCH', path, { spec: { ephemeralContainers: [{ name: 'debugger-x2', image: 'busybox' }] } }, smp);
  assert.deepEqual(second.json.spec.ephemeralContainers.map((e: { name: string }) => e.name), ['debugger-x1', 'debugger-x2']);
  const put = await rawRequest(double, 'PUT', path, { ...second.json, spec: { ...second.json.spec, ephemeralContainers: [...second.json.spec.ephemeralContainers, { name: 'd3', image: 'busybox' }] } });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.json.spec.ephemeralContainers.length, 3);
  const bad = await rawRequest(double, 'PATCH', path, { spec: { ephemeralContainers: [{ name: 'd4', image: 'busybox', ports: [{ containerPort: 80 }] }] } }, smp);
  assert.equal(bad.status, 422);
  assert.equal(bad.json.message, 'Pod "web" is invalid: spec.ephemeralContainers[3].ports: Forbidden: cannot be set for an Ephemeral Container');
  const missing = await rawRequest(double, 'PATCH', '/api/v1/namespaces/default/pods/nope/ephemeralcontainers', { spec: {} }, smp);
  assert.equal(missing.status, 404);
  assert.equal(missing.json.message, 'pods "nope" not found');
  const del = await rawRequest(double, 'DELETE', path);
  assert.equal(del.status, 405);
});
