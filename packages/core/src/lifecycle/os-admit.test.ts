// Upstream: test/e2e/common/node/pod_admission.go "PodOSRejection [NodeConformance] Kubelet should reject pod
// when the node OS doesn't match pod's OS" — the kubelet's predicate admit handler (lifecycle/predicate.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { admit } from './admit.ts';
import type { AdmitNode } from './types.ts';

const node: AdmitNode = {
  name: 'n1',
  labels: { 'kubernetes.io/hostname': 'n1', 'kubernetes.io/os': 'linux' },
  allocatable: { cpuMilli: 2000, memoryBytes: 1024 ** 3, pods: 10 },
};

function pod(os?: string, label?: string): V1Pod {
  return {
    metadata: { name: 'p', namespace: 'default', uid: 'u', labels: label ? { 'kubernetes.io/os': label } : undefined },
    spec: { os: os ? { name: os } : undefined, containers: [{ name: 'c', image: 'x' }] },
  };
}

test('spec.os.name other than linux: PodOSNotSupported with the kubelet message', () => {
  assert.deepEqual(admit(pod('windows'), [], node), {
    admit: false,
    reason: 'PodOSNotSupported',
    message: "Failed to admit pod as the OS field doesn't match node OS",
  });
});

test('spec.os.name linux, or absent, is admitted', () => {
  assert.deepEqual(admit(pod('linux'), [], node), { admit: true });
  assert.deepEqual(admit(pod(), [], node), { admit: true });
});

test('a kubernetes.io/os pod label that differs from the node OS: PodOSSelectorNodeLabelDoesNotMatch', () => {
  const want = {
    admit: false,
    reason: 'PodOSSelectorNodeLabelDoesNotMatch',
    message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
  };
  assert.deepEqual(admit(pod(undefined, 'windows'), [], node), want);
  // The node label, when absent or wrong, counts as the node's own OS (the kubelet uses runtime.GOOS then).
  assert.deepEqual(admit(pod(undefined, 'windows'), [], { ...node, labels: {} }), want);
  assert.deepEqual(admit(pod(undefined, 'linux'), [], { ...node, labels: { 'kubernetes.io/os': 'plan9' } }), { admit: true });
});

test('the OS checks come before resource fit (preemption would not help)', () => {
  const full = { ...node, allocatable: { ...node.allocatable, pods: 0 } };
  assert.equal((admit(pod('windows'), [], full) as { reason: string }).reason, 'PodOSNotSupported');
});
