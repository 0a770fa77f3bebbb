import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { stopTimeoutAfterPreStop, terminationGracePeriod, type KillReason } from './termination-grace.ts';

const c: V1Container = {
  name: 'app',
  image: 'img',
  livenessProbe: { exec: { command: ['x'] }, terminationGracePeriodSeconds: 5 },
  startupProbe: { exec: { command: ['x'] } },
};
const pod = (spec?: number, deletion?: number): V1Pod => ({
  metadata: { name: 'p', ...(deletion !== undefined ? { deletionGracePeriodSeconds: deletion } : {}) },
  spec: { containers: [c], ...(spec !== undefined ? { terminationGracePeriodSeconds: spec } : {}) },
});

const cases: Array<{ name: string; pod: V1Pod; reason: KillReason; override?: number; expect: number }> = [
  { name: 'pod terminationGracePeriodSeconds', pod: pod(30), reason: 'Other', expect: 30 },
  { name: 'deletion grace wins', pod: pod(30, 10), reason: 'LivenessProbe', expect: 10 },
  { name: 'liveness kill uses the probe-level value', pod: pod(30), reason: 'LivenessProbe', expect: 5 },
  { name: 'startup kill without a probe-level value uses the pod value', pod: pod(30), reason: 'StartupProbe', expect: 30 },
  { name: 'no pod value: the 2 s minimum', pod: pod(), reason: 'Other', expect: 2 },
  { name: 'an override wins over everything', pod: pod(30, 10), reason: 'LivenessProbe', override: 0, expect: 0 },
];

for (const tc of cases) {
  test(`terminationGracePeriod: ${tc.name}`, () => {
    assert.equal(terminationGracePeriod(tc.pod, c, tc.reason, tc.override), tc.expect);
  });
}

test('stopTimeoutAfterPreStop: grace minus preStop, never under 2 s', () => {
  const table: Array<[number, number, number]> = [
    [30, 0, 30],
    [30, 10.9, 20],
    [30, 29, 2],
    [30, 45, 2],
    [0, 0, 2],
  ];
  for (const [grace, used, want] of table) assert.equal(stopTimeoutAfterPreStop(grace, used), want, `${grace}-${used}`);
});
