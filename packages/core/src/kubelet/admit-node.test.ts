import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeletConfig } from './config.ts';
import { downwardAllocatableOf } from './admit-node.ts';

// kubelet_resources.go defaultPodLimitsForDownwardAPI reads getNodeAnyWay().Status.Allocatable: the Node as the
// API server has it, else the kubelet's initial node (capacity − reserved − hard eviction, the container manager's).
test('downwardAllocatableOf: the reported Node allocatable, else the configured, else the container manager', () => {
  const config = {} as KubeletConfig;
  const cm = { cpuMilli: 2000, memoryBytes: 3 * 2 ** 30, ephemeralStorageBytes: 5e9 };
  assert.deepEqual(downwardAllocatableOf(config, { cpu: '4', memory: '8048516Ki', 'ephemeral-storage': '1234', pods: '110' }, cm), {
    cpuMilli: 4000,
    memoryBytes: 8048516 * 1024,
    ephemeralStorageBytes: 1234,
  });
  assert.deepEqual(downwardAllocatableOf(config, { cpu: '1500m' }, cm), { cpuMilli: 1500, memoryBytes: 3 * 2 ** 30, ephemeralStorageBytes: 5e9 });
  assert.deepEqual(downwardAllocatableOf(config, undefined, cm), cm);
  const configured = { allocatable: { cpuMilli: 500, memoryBytes: 1e9 } } as KubeletConfig;
  assert.deepEqual(downwardAllocatableOf(configured, undefined, cm), { cpuMilli: 500, memoryBytes: 1e9, ephemeralStorageBytes: 5e9 });
  assert.deepEqual(downwardAllocatableOf(config, undefined, undefined), {});
});
