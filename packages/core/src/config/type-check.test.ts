// Wrong types anywhere in a manifest are field errors in the apimachinery structural-schema shape
// ("<path>: Invalid value: \"<type>\": <path> in body must be of type <type>: \"<type>\""), never exceptions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { decodeSinglePod } from './decode.ts';
import { jsonPaths } from './testing/json-paths.ts';
import { validatePod } from './validation.ts';

const SRC = { kind: 'file' as const, id: '/etc/kubernetes/manifests/web.yaml', nodeName: 'node1' };
const typeErr = (path: string, got: string, want: string) => `${path}: Invalid value: "${got}": ${path} in body must be of type ${want}: "${got}"`;
const refused = (...errs: string[]) => `invalid pod: [${errs.join(', ')}]`;

/** A manifest touching most of the fields the kubelet reads. */
const rich = () => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'kube-system', labels: { app: 'web' }, annotations: { 'example.com/a': 'b' } },
  spec: {
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 5,
    hostNetwork: false,
    volumes: [{ name: 'data', emptyDir: { sizeLimit: '1Gi' } }],
    initContainers: [{ name: 'init', image: 'busybox', command: ['true'] }],
    containers: [
      {
        name: 'app',
        image: 'busybox:1.36',
        command: ['sh', '-c', 'sleep 1000'],
        env: [{ name: 'A', value: 'b' }, { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        resources: { limits: { cpu: '500m', memory: 134217728 }, requests: { cpu: 0.1 } },
        readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 3 },
        volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true }],
        securityContext: { runAsUser: 1000, privileged: false },
      },
    ],
  },
});

const decodeObj = (obj: unknown) => decodeSinglePod(JSON.stringify(obj), SRC);

test('the rich manifest is valid (quantities as numbers too)', () => {
  const r = decodeObj(rich());
  assert.ok(r.ok, !r.ok ? r.message : '');
});

test('containers: "notalist" is a field error, not an exception', () => {
  const text = 'apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: "notalist"\n';
  assert.deepEqual(decodeSinglePod(text, SRC), { ok: false, message: refused(typeErr('spec.containers', 'string', 'array')) });
});

test('ports: abc is a field error', () => {
  const text = 'apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: app\n    image: busybox\n    ports: abc\n';
  assert.deepEqual(decodeSinglePod(text, SRC), { ok: false, message: refused(typeErr('spec.containers[0].ports', 'string', 'array')) });
});

const typeCases: Array<[string, (m: ReturnType<typeof rich>) => void, string[]]> = [
  ['metadata a number', (m) => ((m as Record<string, unknown>).metadata = 5), [typeErr('metadata', 'integer', 'object')]],
  ['spec a list', (m) => ((m as Record<string, unknown>).spec = []), [typeErr('spec', 'array', 'object')]],
  ['a null container', (m) => ((m.spec.containers as unknown[])[0] = null), [typeErr('spec.containers[0]', 'null', 'object')]],
  ['image a number', (m) => ((m.spec.containers[0] as Record<string, unknown>).image = 5), [typeErr('spec.containers[0].image', 'integer', 'string')]],
  ['containerPort a string', (m) => ((m.spec.containers[0]!.ports[0] as Record<string, unknown>).containerPort = '80'), [typeErr('spec.containers[0].ports[0].containerPort', 'string', 'integer')]],
  ['containerPort a fraction', (m) => (m.spec.containers[0]!.ports[0]!.containerPort = 80.5), [typeErr('spec.containers[0].ports[0].containerPort', 'number', 'integer')]],
  ['command a string', (m) => ((m.spec.containers[0] as Record<string, unknown>).command = 'sleep 1'), [typeErr('spec.containers[0].command', 'string', 'array')]],
  ['labels a list', (m) => ((m.metadata as Record<string, unknown>).labels = ['a']), [typeErr('metadata.labels', 'array', 'object')]],
  ['a label value a number', (m) => ((m.metadata.labels as Record<string, unknown>).app = 5), [typeErr('metadata.labels[app]', 'integer', 'string')]],
  ['hostNetwork a string', (m) => ((m.spec as Record<string, unknown>).hostNetwork = 'yes'), [typeErr('spec.hostNetwork', 'string', 'boolean')]],
  ['probe port a boolean', (m) => ((m.spec.containers[0]!.readinessProbe.httpGet as Record<string, unknown>).port = true), [typeErr('spec.containers[0].readinessProbe.httpGet.port', 'boolean', 'integer or string')]],
  ['two wrong types, both reported (in schema field order)', (m) => {
    (m.spec as Record<string, unknown>).terminationGracePeriodSeconds = 'soon';
    (m.spec.initContainers[0] as Record<string, unknown>).command = { a: 1 };
  }, [typeErr('spec.initContainers[0].command', 'object', 'array'), typeErr('spec.terminationGracePeriodSeconds', 'string', 'integer')]],
];
for (const [name, mut, errs] of typeCases) {
  test(`wrong type: ${name}`, () => {
    const m = rich();
    mut(m);
    assert.deepEqual(decodeObj(m), { ok: false, message: refused(...errs) });
  });
}

test('int32 fields refuse numbers beyond 32 bits', () => {
  const m = rich();
  m.spec.containers[0]!.ports[0]!.containerPort = 2 ** 40;
  assert.deepEqual(decodeObj(m), { ok: false, message: refused(`spec.containers[0].ports[0].containerPort: Invalid value: ${2 ** 40}: must be a 32-bit integer`) });
});

test('null is an absent field and unknown fields are dropped, as the Go decoder does', () => {
  const m = rich() as unknown as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
  m.metadata.labels = null;
  m.spec.volumes = null;
  (m.spec.containers as Array<Record<string, unknown>>)[0]!.volumeMounts = null;
  m.spec.bogus = { deep: [1, 2, 3] };
  const r = decodeObj(m);
  assert.ok(r.ok, !r.ok ? r.message : '');
  const pod = r.pods[0]!;
  assert.equal(pod.metadata?.labels, undefined);
  assert.equal((pod.spec as unknown as Record<string, unknown>).bogus, undefined);
});

function replaced(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let cur = copy;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[path.at(-1) as string | number] = value;
  return copy;
}

test('null, number, string, list, object and boolean at every level: never throws, a pod or field errors', () => {
  const base = rich();
  const wrong: unknown[] = [null, 7, 1.5, -1, 'x', '', [], [null], {}, true];
  let refusedCount = 0;
  for (const p of jsonPaths(base)) {
    for (const w of wrong) {
      const doc = replaced(base, p, w);
      const where = `${JSON.stringify(p)} = ${JSON.stringify(w)}`;
      for (const text of [JSON.stringify(doc), stringify(doc)]) {
        const r = decodeSinglePod(text, SRC);
        if (!r.ok) {
          refusedCount++;
          assert.match(r.message, /^(invalid pod: |Object 'Kind' is missing|couldn't parse as pod)/, where);
        } else assert.deepEqual(validatePod(r.pods[0]), [], `${where}: an admitted pod is valid`);
      }
      assert.doesNotThrow(() => validatePod(doc), where);
    }
  }
  assert.ok(refusedCount > 100, `most replacements are refused (${refusedCount})`);
});
