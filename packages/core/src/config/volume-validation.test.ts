/**
 * Volume validation: expected messages are the API server's (pkg/apis/core/validation/validation.go field
 * paths and details, apimachinery field.Error formatting).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { decodeSinglePod } from './decode.ts';
import { validatePod } from './validation.ts';

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const base = (): V1Pod => ({
  metadata: { name: 'web' },
  spec: {
    volumes: [{ name: 'data', emptyDir: {} }],
    containers: [{ name: 'app', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
  },
});
type Mut = (p: V1Pod) => void;
const vols = (p: V1Pod) => p.spec!.volumes!;
const mounts = (p: V1Pod) => p.spec!.containers[0]!.volumeMounts!;

const cases: Array<[string, Mut, string[]]> = [
  ['valid', () => {}, []],
  [
    'name with a path',
    (p) => {
      vols(p)[0]!.name = '../x';
      mounts(p)[0]!.name = '../x';
    },
    [`spec.volumes[0].name: Invalid value: "../x": ${LABEL_MSG}`, 'spec.containers[0].volumeMounts[0].name: Not found: "../x"'],
  ],
  ['name required', (p) => (vols(p)[0]!.name = ''), ['spec.volumes[0].name: Required value', 'spec.containers[0].volumeMounts[0].name: Not found: "data"']],
  ['duplicate name', (p) => vols(p).push({ name: 'data', emptyDir: {} }), ['spec.volumes[1].name: Duplicate value: "data"']],
  ['no source', (p) => (vols(p)[0] = { name: 'data' }), ['spec.volumes[0]: Required value: must specify a volume type', 'spec.containers[0].volumeMounts[0].name: Not found: "data"']],
  [
    'two sources',
    (p) => (vols(p)[0] = { name: 'data', emptyDir: {}, hostPath: { path: '/srv' }, downwardAPI: {} }),
    ['spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type', 'spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type', 'spec.containers[0].volumeMounts[0].name: Not found: "data"'],
  ],
  [
    'hostPath',
    (p) => vols(p).push({ name: 'a', hostPath: { path: '' } }, { name: 'b', hostPath: { path: '/srv/../etc' } }, { name: 'c', hostPath: { path: '/srv', type: 'Dir' } }),
    [
      'spec.volumes[1].hostPath.path: Required value',
      `spec.volumes[2].hostPath.path: Invalid value: "/srv/../etc": must not contain '..'`,
      'spec.volumes[3].hostPath.type: Unsupported value: "Dir": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
    ],
  ],
  [
    'configMap and secret items',
    (p) =>
      vols(p).push(
        { name: 'cm', configMap: { name: 'app', items: [{ key: 'k', path: '../x' }, { key: 'k', path: '/etc/x' }, { key: '', path: '..data' }] } },
        { name: 's', secret: { defaultMode: 0o1000, items: [{ key: 'k', path: 'a/../../x', mode: -1 }] } },
      ),
    [
      `spec.volumes[1].configMap.items[0].path: Invalid value: "../x": must not contain '..'`,
      'spec.volumes[1].configMap.items[1].path: Invalid value: "/etc/x": must be a relative path',
      'spec.volumes[1].configMap.items[2].key: Required value',
      `spec.volumes[1].configMap.items[2].path: Invalid value: "..data": must not start with '..'`,
      'spec.volumes[2].secret.secretName: Required value',
      'spec.volumes[2].secret.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive',
      `spec.volumes[2].secret.items[0].path: Invalid value: "a/../../x": must not contain '..'`,
      'spec.volumes[2].secret.items[0].mode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive',
    ],
  ],
  [
    'downwardAPI and projected paths',
    (p) =>
      vols(p).push(
        { name: 'd', downwardAPI: { items: [{ path: '../name', fieldRef: { fieldPath: 'metadata.name' } }, { path: 'x' }] } },
        {
          name: 'p',
          projected: {
            sources: [
              { configMap: { name: 'a', items: [{ key: 'k', path: 'same' }] }, secret: { name: 's', items: [{ key: 'k', path: '../s' }] } },
              { configMap: { name: 'b', items: [{ key: 'k', path: 'same' }] } },
              { serviceAccountToken: { path: '/token', expirationSeconds: 60 } },
            ],
          },
        },
      ),
    [
      `spec.volumes[1].downwardAPI.path: Invalid value: "../name": must not contain '..'`,
      'spec.volumes[1].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required',
      `spec.volumes[2].projected.sources[0].secret.items[0].path: Invalid value: "../s": must not contain '..'`,
      'spec.volumes[2].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source',
      'spec.volumes[2].projected: Invalid value: "b": conflicting duplicate paths',
      'spec.volumes[2].projected.sources[2].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      'spec.volumes[2].projected.path: Invalid value: "/token": must be a relative path',
    ],
  ],
  [
    'mounts',
    (p) =>
      mounts(p).push(
        { name: 'data', mountPath: '/data', subPath: '../x' },
        { name: 'data', mountPath: '/abs', subPath: '/etc' },
        { name: 'data', mountPath: '/expr', subPathExpr: '$(POD)/../..', subPath: 'a' },
        { name: '', mountPath: '' },
        { name: 'data', mountPath: '/bi', mountPropagation: 'Bidirectional' },
      ),
    [
      'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique',
      `spec.containers[0].volumeMounts.subPath: Invalid value: "../x": must not contain '..'`,
      'spec.containers[0].volumeMounts.subPath: Invalid value: "/etc": must be a relative path',
      'spec.containers[0].volumeMounts[3].subPathExpr: Invalid value: "$(POD)/../..": subPathExpr and subPath are mutually exclusive',
      `spec.containers[0].volumeMounts.subPathExpr: Invalid value: "$(POD)/../..": must not contain '..'`,
      'spec.containers[0].volumeMounts[4].name: Required value',
      'spec.containers[0].volumeMounts[4].name: Not found: ""',
      'spec.containers[0].volumeMounts[4].mountPath: Required value',
      'spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers',
    ],
  ],
  [
    'init container mounts and devices',
    (p) => (p.spec!.initContainers = [{ name: 'init', image: 'busybox', volumeMounts: [{ name: 'nope', mountPath: '/n' }], volumeDevices: [{ name: 'data', devicePath: '/dev/../x' }] }]),
    [
      'spec.initContainers[0].volumeMounts[0].name: Not found: "nope"',
      'spec.initContainers[0].volumeDevices[0].name: Invalid value: "data": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
      `spec.initContainers[0].volumeDevices[0].devicePath: Invalid value: "/dev/../x": can not contain backsteps ('..')`,
    ],
  ],
];

for (const [name, mut, want] of cases) {
  test(`validatePod volumes: ${name}`, () => {
    const p = base();
    mut(p);
    assert.deepEqual(validatePod(p), want);
  });
}

test('a manifest whose volume name walks out of the pod dir is refused with the API server message', async () => {
  const target = await mkdtemp(join(tmpdir(), 'volname-escape-'));
  try {
    const name = `${'../'.repeat(4)}${relative('/', target)}/escape`;
    const text = `apiVersion: v1
kind: Pod
metadata: { name: web }
spec:
  volumes: [{ name: ${JSON.stringify(name)}, emptyDir: { medium: Memory } }]
  containers: [{ name: app, image: busybox, volumeMounts: [{ name: ${JSON.stringify(name)}, mountPath: /x }] }]
`;
    const r = decodeSinglePod(text, { kind: 'file', id: '/etc/kubernetes/manifests/web.yaml', nodeName: 'node1' });
    assert.equal(r.ok, false);
    assert.equal(
      !r.ok && r.message,
      `invalid pod: [spec.volumes[0].name: Invalid value: ${JSON.stringify(name)}: ${LABEL_MSG}, spec.containers[0].volumeMounts[0].name: Not found: ${JSON.stringify(name)}]`,
    );
    assert.deepEqual(await readdir(target), []);
  } finally {
    await rm(target, { recursive: true, force: true });
  }
});
