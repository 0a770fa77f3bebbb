import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Container, V1Probe } from '@kubernetes/client-node';
// Expected values: v1.28 pkg/apis/core/validation validateProbe / validateHandler / ValidatePortNumOrName.
import type { ProbeType } from './types.ts';
import { validatePodProbes, validateProbe } from './validation.ts';

const app: V1Container = { name: 'app', image: 'img', ports: [{ name: 'http', containerPort: 8080 }] };

const cases: Array<{ name: string; type: ProbeType; probe: V1Probe; expect: string[] }> = [
  { name: 'valid exec with defaults left out', type: 'liveness', probe: { exec: { command: ['true'] } }, expect: [] },
  { name: 'declared named port', type: 'readiness', probe: { httpGet: { port: 'http', path: '/' } }, expect: [] },
  { name: 'no handler', type: 'liveness', probe: { periodSeconds: 5 }, expect: ['livenessProbe: Required value: must specify a handler type'] },
  {
    name: 'two handlers',
    type: 'liveness',
    probe: { exec: { command: ['true'] }, tcpSocket: { port: 8080 } },
    expect: ['livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type'],
  },
  // The API server checks a port name's form only (the prober reports an undeclared one when it runs).
  { name: 'undeclared port name', type: 'readiness', probe: { httpGet: { port: 'metrics' } }, expect: [] },
  {
    name: 'port name of the wrong form (IsValidPortName)',
    type: 'readiness',
    probe: { httpGet: { port: 'Metrics--1' } },
    expect: [
      'readinessProbe.httpGet.port: Invalid value: "Metrics--1": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'readinessProbe.httpGet.port: Invalid value: "Metrics--1": must not contain consecutive hyphens',
    ],
  },
  {
    name: 'tcp port out of range',
    type: 'readiness',
    probe: { tcpSocket: { port: 70000 } },
    expect: ['readinessProbe.tcpSocket.port: Invalid value: 70000: must be between 1 and 65535, inclusive'],
  },
  // SetDefaults_Probe replaces zeros with the defaults; ValidateNonnegativeField refuses negatives.
  {
    name: 'zero periods and thresholds are defaulted',
    type: 'readiness',
    probe: { exec: { command: ['true'] }, periodSeconds: 0, timeoutSeconds: 0, failureThreshold: 0, successThreshold: 0 },
    expect: [],
  },
  {
    name: 'negative periods, timeouts, thresholds',
    type: 'readiness',
    probe: { exec: { command: ['true'] }, periodSeconds: -3, timeoutSeconds: -1, failureThreshold: -4, successThreshold: -2 },
    expect: [
      'readinessProbe.timeoutSeconds: Invalid value: -1: must be greater than or equal to 0',
      'readinessProbe.periodSeconds: Invalid value: -3: must be greater than or equal to 0',
      'readinessProbe.successThreshold: Invalid value: -2: must be greater than or equal to 0',
      'readinessProbe.failureThreshold: Invalid value: -4: must be greater than or equal to 0',
    ],
  },
  {
    name: 'negative initial delay',
    type: 'startup',
    probe: { exec: { command: ['true'] }, initialDelaySeconds: -1 },
    expect: ['startupProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0'],
  },
  {
    name: 'liveness successThreshold must be 1',
    type: 'liveness',
    probe: { exec: { command: ['true'] }, successThreshold: 3 },
    expect: ['livenessProbe.successThreshold: Invalid value: 3: must be 1'],
  },
  {
    name: 'startup successThreshold must be 1',
    type: 'startup',
    probe: { exec: { command: ['true'] }, successThreshold: 2 },
    expect: ['startupProbe.successThreshold: Invalid value: 2: must be 1'],
  },
  { name: 'readiness successThreshold may exceed 1', type: 'readiness', probe: { exec: { command: ['true'] }, successThreshold: 2 }, expect: [] },
  {
    name: 'readiness may not set terminationGracePeriodSeconds',
    type: 'readiness',
    probe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 5 },
    expect: ['readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes'],
  },
  {
    name: 'liveness terminationGracePeriodSeconds must be positive',
    type: 'liveness',
    probe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 0 },
    expect: ['livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0'],
  },
  { name: 'exec without a command', type: 'liveness', probe: { exec: {} }, expect: ['livenessProbe.exec.command: Required value'] },
  {
    name: 'grpc port 0',
    type: 'liveness',
    probe: { grpc: { port: 0 } },
    expect: ['livenessProbe.grpc.port: Invalid value: 0: must be between 1 and 65535, inclusive'],
  },
  {
    name: 'http scheme',
    type: 'liveness',
    probe: { httpGet: { port: 8080, scheme: 'FTP' } },
    expect: ['livenessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"'],
  },
];

for (const tc of cases) {
  test(`validateProbe: ${tc.name}`, () => {
    assert.deepEqual(validateProbe(tc.probe, tc.type), tc.expect);
  });
}

test('validatePodProbes uses API field paths (containers and sidecar init containers)', () => {
  const errs = validatePodProbes({
    spec: {
      initContainers: [
        { name: 'plain', image: 'i', livenessProbe: {} },
        { name: 'side', image: 'i', restartPolicy: 'Always', readinessProbe: {} },
      ],
      containers: [app, { name: 'b', image: 'i', startupProbe: { tcpSocket: { port: 'no_pe' } } }],
    },
  });
  assert.deepEqual(errs, [
    'spec.initContainers[1].readinessProbe: Required value: must specify a handler type',
    'spec.containers[1].startupProbe.tcpSocket.port: Invalid value: "no_pe": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
  ]);
});
