import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerStatus, PodStatus } from '../container/types.ts';
import { podCgroupName } from '../cm/cgroup-name.ts';
import { statsSources } from './stats-sources.ts';

const pod = (uid: string, resources?: Record<string, Record<string, string>>): V1Pod => ({
  metadata: { uid, name: `p-${uid}`, namespace: 'ns' },
  spec: { containers: [{ name: 'app', ...(resources ? { resources } : {}) }] },
});

const container = (id: string, state: ContainerStatus['state'], createdAt: number): ContainerStatus => ({
  id: { type: 'nodelet', id }, name: 'app', state, createdAt, startedAt: createdAt + 1, finishedAt: 0, exitCode: 0, reason: '', message: '',
  image: 'img:1', imageRef: '', imageId: '', restartCount: 0, hash: '', logPath: '',
});

const status = (uid: string, containers: ContainerStatus[], sandbox: 'ready' | 'notready' = 'ready'): PodStatus => ({
  uid, name: `p-${uid}`, namespace: 'ns', ips: [], containerStatuses: containers,
  sandboxStatuses: [{ id: 's', state: sandbox, createdAt: 5, attempt: 0, ip: '', additionalIps: [] }],
});

const cases: { name: string; pods: V1Pod[]; statuses: Record<string, PodStatus>; perQos: boolean; keys: string[]; summaryPods: number }[] = [
  {
    name: 'burstable pod with a running container (newest of two) under the QoS tree',
    pods: [pod('a', { requests: { cpu: '100m' }, limits: { memory: '64Mi' } })],
    statuses: { a: status('a', [container('old', 'exited', 1), container('c1', 'running', 10)]) },
    perQos: true,
    keys: ['/kubepods', '/kubepods/burstable', '/kubepods/besteffort', '/kubepods/burstable/poda', '/kubepods/burstable/poda/c1'],
    summaryPods: 1,
  },
  { name: 'pod without runtime status is not tracked', pods: [pod('b')], statuses: {}, perQos: false, keys: [], summaryPods: 0 },
  { name: 'stopped sandbox without running containers is not tracked', pods: [pod('c')], statuses: { c: status('c', [container('x', 'exited', 1)], 'notready') }, perQos: false, keys: [], summaryPods: 0 },
  { name: 'besteffort pod, no QoS tree', pods: [pod('d')], statuses: { d: status('d', [container('c2', 'running', 3)]) }, perQos: false, keys: ['/kubepods/besteffort/podd', '/kubepods/besteffort/podd/c2'], summaryPods: 1 },
];

for (const c of cases) {
  test(`statsSources: ${c.name}`, () => {
    const out = statsSources({ pods: c.pods, status: (uid) => c.statuses[uid], podCgroup: (p) => podCgroupName(p), podLogsDir: '/var/log/pods', perQos: c.perQos, system: [{ name: 'kubelet', cgroup: '/', startTimeMs: 0 }] });
    assert.deepEqual(out.tracked.map((t) => t.key), c.keys);
    assert.equal(out.summaryPods.length, c.summaryPods);
    assert.deepEqual(out.list.map((l) => l.key), c.keys);
  });
}

test('statsSources: labels, specs, log dirs and network for the pod', () => {
  const p = pod('a', { requests: { cpu: '100m' }, limits: { cpu: '500m', memory: '64Mi' } });
  const out = statsSources({ pods: [p], status: () => status('a', [container('c1', 'running', 10)]), podCgroup: (x) => podCgroupName(x), podLogsDir: '/logs/', perQos: false });
  const [podT, ctr] = out.tracked;
  assert.equal(podT?.network, true);
  assert.deepEqual(podT?.labels, { pod: 'p-a', namespace: 'ns' });
  assert.deepEqual(ctr?.labels, { name: 'c1', image: 'img:1', pod: 'p-a', namespace: 'ns', container: 'app' });
  assert.deepEqual(ctr?.spec, { cpuShares: 102, cpuPeriod: 100000, cpuQuota: 50000, memoryLimit: 64 * 1024 * 1024 });
  assert.equal(ctr?.startTimeMs, 11);
  assert.equal(out.summaryPods[0]?.containers[0]?.logDir, '/logs/ns_p-a_a/app');
  assert.equal(out.list[1]?.parent, '/kubepods/burstable/poda');
});

test('statsSources: node-local volumes under <rootDir>/pods/<uid>/volumes/<plugin>/<name>, writable layers by container id', () => {
  const p: V1Pod = {
    metadata: { uid: 'v', name: 'p-v', namespace: 'ns' },
    spec: {
      containers: [{ name: 'app' }],
      volumes: [
        { name: 'scratch', emptyDir: {} },
        { name: 'cfg', configMap: { name: 'c' } },
        { name: 'tok', secret: { secretName: 's' } },
        { name: 'all', projected: { sources: [] } },
        { name: 'info', downwardAPI: {} },
        { name: 'host', hostPath: { path: '/etc' } },
        { name: 'claim', persistentVolumeClaim: { claimName: 'pvc' } },
      ],
    },
  };
  const out = statsSources({
    pods: [p], status: () => status('v', [container('cv', 'running', 3)]), podCgroup: (x) => podCgroupName(x), podLogsDir: '/var/log/pods', perQos: false,
    rootDir: '/var/lib/nodelet/', writableLayer: (id) => (id === 'cv' ? { usedBytes: 7, inodesUsed: 2 } : undefined),
  });
  const sp = out.summaryPods[0];
  assert.deepEqual(sp?.volumes, [
    { name: 'scratch', path: '/var/lib/nodelet/pods/v/volumes/kubernetes.io~empty-dir/scratch' },
    { name: 'cfg', path: '/var/lib/nodelet/pods/v/volumes/kubernetes.io~configmap/cfg' },
    { name: 'tok', path: '/var/lib/nodelet/pods/v/volumes/kubernetes.io~secret/tok' },
    { name: 'all', path: '/var/lib/nodelet/pods/v/volumes/kubernetes.io~projected/all' },
    { name: 'info', path: '/var/lib/nodelet/pods/v/volumes/kubernetes.io~downward-api/info' },
  ]);
  assert.deepEqual(sp?.containers[0]?.writableLayer, { usedBytes: 7, inodesUsed: 2 });
});
