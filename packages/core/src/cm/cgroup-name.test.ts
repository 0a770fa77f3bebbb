import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { joinCgroup, milliCpuToQuota, milliCpuToShares, parsePodCgroup, podCgroupName, sharesToWeight } from './cgroup-name.ts';

test('milliCpuToShares', () => {
  for (const [milli, shares] of [[0, 2], [1, 2], [2, 2], [100, 102], [250, 256], [1000, 1024], [1500, 1536], [500000, 262144]] as const) {
    assert.equal(milliCpuToShares(milli), shares, `${milli}m`);
  }
});

test('milliCpuToQuota', () => {
  for (const [milli, quota] of [[0, 0], [5, 1000], [10, 1000], [100, 10000], [1500, 150000]] as const) {
    assert.equal(milliCpuToQuota(milli), quota, `${milli}m`);
  }
  assert.equal(milliCpuToQuota(500, 50000), 25000);
});

test('sharesToWeight as runc', () => {
  for (const [shares, weight] of [[0, 0], [2, 1], [1024, 39], [102, 4], [262144, 10000]] as const) {
    assert.equal(sharesToWeight(shares), weight, `shares ${shares}`);
  }
});

const pod = (uid: string, res?: { requests?: Record<string, string>; limits?: Record<string, string> }): V1Pod => ({
  metadata: { uid, name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'c', resources: res }] },
});

test('podCgroupName by QoS class and root', () => {
  const cases: [V1Pod, string | undefined, string][] = [
    [pod('u1'), undefined, '/kubepods/besteffort/podu1'],
    [pod('u2', { requests: { cpu: '100m' } }), undefined, '/kubepods/burstable/podu2'],
    [pod('u3', { limits: { cpu: '1', memory: '1Gi' } }), undefined, '/kubepods/podu3'],
    [pod('u4'), '/nodelet', '/nodelet/kubepods/besteffort/podu4'],
  ];
  for (const [p, root, want] of cases) assert.equal(podCgroupName(p, root), want);
});

test('joinCgroup and parsePodCgroup', () => {
  assert.equal(joinCgroup('/', '/kubepods'), '/kubepods');
  assert.equal(joinCgroup('/a/', 'kubepods/'), '/a/kubepods');
  const cases: [string, ReturnType<typeof parsePodCgroup>][] = [
    ['/kubepods/burstable/pod1234-ab/cid9', { qos: 'Burstable', uid: '1234-ab', containerId: 'cid9' }],
    ['/kubepods/podabc', { qos: 'Guaranteed', uid: 'abc' }],
    ['/nodelet/kubepods/besteffort/podabc/def', { qos: 'BestEffort', uid: 'abc', containerId: 'def' }],
    [
      '/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod12_34.slice/cri-containerd-abcdef.scope',
      { qos: 'Burstable', uid: '12-34', containerId: 'abcdef' },
    ],
    ['/kubepods.slice/kubepods-pod99.slice', { qos: 'Guaranteed', uid: '99' }],
    ['/system.slice/containerd.service', undefined],
    ['/pod123', undefined],
    ['/', undefined],
  ];
  for (const [p, want] of cases) assert.deepEqual(parsePodCgroup(p), want, p);
});
