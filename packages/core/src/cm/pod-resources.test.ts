import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { resourceConfigForPod } from './pod-resources.ts';
import type { ResourceConfig } from './types.ts';

const c = (name: string, requests?: Record<string, string>, limits?: Record<string, string>): V1Container => ({ name, resources: { requests, limits } });
const pod = (containers: V1Container[], init: V1Container[] = []): V1Pod => ({
  metadata: { uid: 'u', name: 'p', namespace: 'd' },
  spec: { containers, initContainers: init },
});

const withOverhead = (p: V1Pod, overhead: Record<string, string>): V1Pod => ({ ...p, spec: { ...p.spec!, overhead } });

test('resourceConfigForPod', () => {
  const cases: { name: string; pod: V1Pod; opts?: Parameters<typeof resourceConfigForPod>[1]; want: ResourceConfig }[] = [
    { name: 'besteffort', pod: pod([c('a')]), want: { cpuShares: 2 } },
    {
      name: 'guaranteed',
      pod: pod([c('a', undefined, { cpu: '500m', memory: '128Mi' }), c('b', undefined, { cpu: '1', memory: '64Mi' })]),
      want: { cpuShares: 1536, cpuQuota: 150000, cpuPeriod: 100000, memoryLimit: 192 * 2 ** 20 },
    },
    { name: 'burstable requests only', pod: pod([c('a', { cpu: '250m', memory: '1Gi' })]), want: { cpuShares: 256 } },
    {
      name: 'burstable, not all containers limit cpu → no quota, memory limit only when all declare',
      pod: pod([c('a', { cpu: '100m' }, { cpu: '200m', memory: '1Gi' }), c('b', { cpu: '100m' }, { memory: '1Gi' })]),
      want: { cpuShares: 204, memoryLimit: 2 * 2 ** 30 },
    },
    {
      name: 'burstable all cpu limits',
      pod: pod([c('a', { cpu: '100m' }, { cpu: '200m' })]),
      want: { cpuShares: 102, cpuQuota: 20000, cpuPeriod: 100000 },
    },
    {
      name: 'init container larger than the sum',
      pod: pod([c('a', { cpu: '100m' })], [c('i', { cpu: '2' })]),
      want: { cpuShares: 2048 },
    },
    {
      name: 'cpuCFSQuota=false, pids limit',
      pod: pod([c('a', undefined, { cpu: '1', memory: '1Gi' })]),
      opts: { enforceCpuLimits: false, podPidsLimit: 1024 },
      want: { cpuShares: 1024, cpuQuota: -1, cpuPeriod: 100000, memoryLimit: 2 ** 30, pidsLimit: 1024 },
    },
    {
      // docs/concepts/scheduling-eviction/pod-overhead: limits 500m/100Mi + 1500m/100Mi, RuntimeClass overhead
      // 250m/120Mi → the pod cgroup's memory.limit_in_bytes 335544320 (320Mi) and 2250m of cpu.
      name: 'spec.overhead added to the pod cgroup',
      pod: withOverhead(pod([c('busybox-ctr', undefined, { cpu: '500m', memory: '100Mi' }), c('nginx-ctr', undefined, { cpu: '1500m', memory: '100Mi' })]), { cpu: '250m', memory: '120Mi' }),
      want: { cpuShares: 2304, cpuQuota: 225000, cpuPeriod: 100000, memoryLimit: 335544320 },
    },
  ];
  for (const tc of cases) assert.deepEqual(resourceConfigForPod(tc.pod, tc.opts), tc.want, tc.name);
});
