import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeNodeAllocatable, kubepodsResources, type AllocatableInput } from './node-allocatable.ts';

const GiB = 2 ** 30;
const MiB = 2 ** 20;
const capacity = { cpuMilli: 2000, memoryBytes: 24 * GiB, ephemeralStorageBytes: 100 * GiB, pods: 110 };

test('computeNodeAllocatable', () => {
  const cases: { name: string; input: AllocatableInput; want: Record<string, number> | string }[] = [
    { name: 'nothing reserved', input: { capacity }, want: { cpuMilli: 2000, memoryBytes: 24 * GiB, ephemeralStorageBytes: 100 * GiB, pods: 110 } },
    {
      name: 'reserved + hard eviction defaults',
      input: {
        capacity,
        kubeReserved: { cpu: '100m', memory: '1Gi' },
        systemReserved: { cpu: '200m', memory: '512Mi', 'ephemeral-storage': '1Gi' },
        evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'imagefs.available': '15%' },
      },
      want: { cpuMilli: 1700, memoryBytes: 24 * GiB - GiB - 512 * MiB - 100 * MiB, ephemeralStorageBytes: 100 * GiB - GiB - 10 * GiB, pods: 110 },
    },
    { name: 'percent cpu', input: { capacity, kubeReserved: { cpu: '10%' } }, want: { cpuMilli: 1800, memoryBytes: 24 * GiB, ephemeralStorageBytes: 100 * GiB, pods: 110 } },
    { name: 'floors at zero', input: { capacity, systemReserved: { cpu: '3' } }, want: { cpuMilli: 0, memoryBytes: 24 * GiB, ephemeralStorageBytes: 100 * GiB, pods: 110 } },
    { name: 'bad quantity', input: { capacity, kubeReserved: { memory: 'lots' } }, want: 'InvalidNodeAllocatable' },
  ];
  for (const tc of cases) {
    const r = computeNodeAllocatable(tc.input);
    if (typeof tc.want === 'string') assert.equal(r.ok ? 'ok' : r.reason, tc.want, tc.name);
    else assert.deepEqual(r.ok ? r.allocatable : r, tc.want, tc.name);
  }
});

test('kubepodsResources excludes eviction thresholds', () => {
  const r = kubepodsResources({ capacity, kubeReserved: { cpu: '500m', memory: '1Gi' }, evictionHard: { 'memory.available': '100Mi' } });
  assert.deepEqual(r, { ok: true, resources: { cpuShares: 1536, memoryLimit: 23 * GiB } });
});
