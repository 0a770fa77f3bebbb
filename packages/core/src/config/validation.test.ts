import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { validatePod } from './validation.ts';

const base = (): V1Pod => ({
  metadata: { name: 'web' },
  spec: { containers: [{ name: 'app', image: 'busybox' }] },
});
type Mut = (p: V1Pod) => void;
const spec = (p: V1Pod) => p.spec!;
const c0 = (p: V1Pod) => p.spec!.containers[0]!;

const cases: Array<[string, Mut, string[]]> = [
  ['valid', () => {}, []],
  ['name required', (p) => delete p.metadata!.name, ['metadata.name: Required value: name or generateName is required']],
  [
    'name not a subdomain',
    (p) => (p.metadata!.name = 'Web_1'),
    [
      `metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ],
  ],
  ['no containers', (p) => (spec(p).containers = []), ['spec.containers: Required value']],
  ['image required', (p) => delete c0(p).image, ['spec.containers[0].image: Required value']],
  [
    'container name not a label',
    (p) => (c0(p).name = 'App.1'),
    [
      `spec.containers[0].name: Invalid value: "App.1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ],
  ],
  // validateInitContainers reports an init container named as a regular one (the regular ones are checked first).
  [
    'duplicate across init and app containers',
    (p) => (spec(p).initContainers = [{ name: 'app', image: 'x' }]),
    ['spec.initContainers[0].name: Duplicate value: "app"'],
  ],
  [
    'restartPolicy',
    (p) => (spec(p).restartPolicy = 'Sometimes'),
    ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'],
  ],
  [
    'bad quantity',
    (p) => (c0(p).resources = { limits: { memory: '1Gb' } }),
    [
      `spec.containers[0].resources.limits[memory]: Invalid value: "1Gb": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    ],
  ],
  [
    'request above limit',
    (p) => (c0(p).resources = { requests: { cpu: '2' }, limits: { cpu: '1' } }),
    ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'],
  ],
  [
    'port out of range',
    (p) => (c0(p).ports = [{ containerPort: 70000 }]),
    ['spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive'],
  ],
  [
    'probe without handler',
    (p) => (c0(p).livenessProbe = { periodSeconds: 5 }),
    ['spec.containers[0].livenessProbe: Required value: must specify a handler type'],
  ],
  [
    'probe with two handlers',
    (p) => (c0(p).readinessProbe = { exec: { command: ['true'] }, tcpSocket: { port: 80 } }),
    ['spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type'],
  ],
  // ValidatePortNumOrName checks a port name's form only: the API server accepts a name the container does not declare.
  ['probe on a port name the container does not declare', (p) => (c0(p).readinessProbe = { httpGet: { port: 'admin', path: '/' } }), []],
  [
    'liveness successThreshold must be 1',
    (p) => (c0(p).livenessProbe = { exec: { command: ['true'] }, successThreshold: 2 }),
    ['spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1'],
  ],
  ['readiness successThreshold may exceed 1', (p) => (c0(p).readinessProbe = { exec: { command: ['true'] }, successThreshold: 2 }), []],
  // SetDefaults_Probe replaces a 0 period with 10; validateProbe refuses a negative one (ValidateNonnegativeField).
  ['period 0 (defaulted to 10)', (p) => (c0(p).startupProbe = { httpGet: { port: 8080 }, periodSeconds: 0 }), []],
  [
    'period below 0',
    (p) => (c0(p).startupProbe = { httpGet: { port: 8080 }, periodSeconds: -1 }),
    ['spec.containers[0].startupProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0'],
  ],
  [
    'probe on a regular init container',
    (p) => (spec(p).initContainers = [{ name: 'i', image: 'x', readinessProbe: { exec: { command: ['true'] } } }]),
    ['spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always'],
  ],
  // The API server's ValidatePodSpec: activeDeadlineSeconds in [1, MaxInt32].
  ['activeDeadlineSeconds 0', (p) => (spec(p).activeDeadlineSeconds = 0), ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']],
  ['activeDeadlineSeconds -5', (p) => (spec(p).activeDeadlineSeconds = -5), ['spec.activeDeadlineSeconds: Invalid value: -5: must be between 1 and 2147483647, inclusive']],
  ['activeDeadlineSeconds 1', (p) => (spec(p).activeDeadlineSeconds = 1), []],
];

for (const [name, mut, want] of cases) {
  test(`validate: ${name}`, () => {
    const p = base();
    mut(p);
    assert.deepEqual(validatePod(p), want);
  });
}

test('hostNetwork: a hostPort of 0 counts as its containerPort in the host port conflict check (SetDefaults_Pod runs before ValidatePod)', () => {
  const p: V1Pod = {
    metadata: { name: 'hn', namespace: 'default' },
    spec: { hostNetwork: true, containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, hostPort: 0, protocol: 'TCP' }, { containerPort: 80, protocol: 'TCP' }] }] },
  };
  assert.deepEqual(validatePod(p), ['spec.containers[0].ports[1].hostPort: Duplicate value: "TCP//80"']);
  assert.deepEqual(validatePod({ ...p, spec: { ...p.spec!, hostNetwork: false } }), []);
});
