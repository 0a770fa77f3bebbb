/**
 * The v1 PodResourcesLister with recording providers: what List, GetAllocatableResources and Get return, the
 * KubeletPodResourcesGet gate (off by default in v1.28), the kubelet's error texts and the
 * kubelet_pod_resources_endpoint_* counters (pkg/kubelet/apis/podresources/server_v1.go, metrics.go, v1.28);
 * the device manager's devices per device and NUMA node (cm containerDevicesFromResourceDeviceInstances).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import type { V1Pod } from '@kubernetes/client-node';
import { createKubeletMetrics } from '../metrics/kubelet-metrics.ts';
import { PodResourcesLister } from './lister.ts';
import { containerDevicesOf } from './device-provider.ts';
import type { ContainerDevices, PodResourcesProviders } from './types.ts';

const pod = (name: string, uid: string, containers: string[], init: string[] = []): V1Pod => ({
  metadata: { name, namespace: 'default', uid },
  spec: { initContainers: init.map((n) => ({ name: n, image: 'busybox' })), containers: containers.map((n) => ({ name: n, image: 'busybox' })) },
});

function providers(pods: V1Pod[], calls: string[]): PodResourcesProviders {
  const dev: ContainerDevices = { resourceName: 'example.com/foo', deviceIds: ['dev-a'], topology: { nodes: [{ ID: 0 }] } };
  return {
    pods: { getPods: () => pods, getPodByName: (ns, name) => pods.find((p) => p.metadata?.namespace === ns && p.metadata?.name === name) },
    devices: {
      updateAllocatedDevices: () => void calls.push('updateAllocatedDevices'),
      getDevices: (uid, c) => {
        calls.push(`devices ${uid}/${c}`);
        return uid === 'u1' && c === 'app' ? [dev] : [];
      },
      getAllocatableDevices: () => [dev, { resourceName: 'example.com/foo', deviceIds: ['dev-b'] }],
    },
    cpus: { getCPUs: (uid, c) => (uid === 'u1' && c === 'app' ? [2, 3] : []), getAllocatableCPUs: () => [1, 2, 3] },
    memory: {
      getMemory: (uid, c) => (uid === 'u1' && c === 'app' ? [{ memoryType: 'memory', size: 1 << 30, topology: { nodes: [{ ID: 0 }] } }] : []),
      getAllocatableMemory: () => [{ memoryType: 'memory', size: 4 << 30, topology: { nodes: [{ ID: 0 }] } }],
    },
  };
}

const counts = async (r: Registry) =>
  Object.fromEntries(
    (await r.getMetricsAsJSON())
      .filter((m) => m.name.startsWith('kubelet_pod_resources_'))
      .map((m) => [m.name.replace('kubelet_pod_resources_endpoint_', ''), m.values.filter((v) => v.labels.server_api_version === 'v1').reduce((a, v) => a + v.value, 0)]),
  );

test('List: every pod, its app containers (not init containers) with devices, exclusive CPUs and memory; stale devices dropped first', () => {
  const calls: string[] = [];
  const l = new PodResourcesLister(providers([pod('p1', 'u1', ['app', 'side'], ['init']), pod('p2', 'u2', ['c'])], calls));
  assert.deepEqual(l.list(), [
    {
      name: 'p1',
      namespace: 'default',
      containers: [
        { name: 'app', devices: [{ resourceName: 'example.com/foo', deviceIds: ['dev-a'], topology: { nodes: [{ ID: 0 }] } }], cpuIds: [2, 3], memory: [{ memoryType: 'memory', size: 1 << 30, topology: { nodes: [{ ID: 0 }] } }], dynamicResources: [] },
        { name: 'side', devices: [], cpuIds: [], memory: [], dynamicResources: [] },
      ],
    },
    { name: 'p2', namespace: 'default', containers: [{ name: 'c', devices: [], cpuIds: [], memory: [], dynamicResources: [] }] },
  ]);
  assert.equal(calls[0], 'updateAllocatedDevices');
  assert.ok(!calls.includes('devices u1/init'));
});

test('GetAllocatableResources: healthy devices, the allocatable CPUs and memory', () => {
  const l = new PodResourcesLister(providers([], []));
  assert.deepEqual(l.getAllocatableResources(), {
    devices: [
      { resourceName: 'example.com/foo', deviceIds: ['dev-a'], topology: { nodes: [{ ID: 0 }] } },
      { resourceName: 'example.com/foo', deviceIds: ['dev-b'] },
    ],
    cpuIds: [1, 2, 3],
    memory: [{ memoryType: 'memory', size: 4 << 30, topology: { nodes: [{ ID: 0 }] } }],
  });
});

test('Get: off by default (KubeletPodResourcesGet is alpha in v1.28); on, a missing pod is named; the counters as the kubelet counts', async () => {
  const r = new Registry();
  const metrics = createKubeletMetrics(r);
  const pods = [pod('p1', 'u1', ['app'])];
  const off = new PodResourcesLister(providers(pods, []), { metrics });
  assert.throws(() => off.get('p1', 'default'), { message: 'PodResources API Get method disabled' });
  const on = new PodResourcesLister(providers(pods, []), { metrics, getEnabled: true });
  assert.throws(() => on.get('nope', 'default'), { message: 'pod nope in namespace default not found' });
  assert.deepEqual(on.get('p1', 'default').containers.map((c) => [c.name, c.cpuIds]), [['app', [2, 3]]]);
  on.list();
  on.getAllocatableResources();
  assert.deepEqual(await counts(r), { requests_total: 5, requests_list: 1, requests_get_allocatable: 1, requests_get: 3, errors_list: 0, errors_get_allocatable: 0, errors_get: 2 });
});

test('devices per device and NUMA node: several nodes → one entry each, none reported → no topology; sorted', () => {
  assert.deepEqual(
    containerDevicesOf([
      ['example.com/foo', { '1': ['b', 'a'], '0': ['b'] }],
      ['example.com/bar', { '-1': ['x'] }],
    ]),
    [
      { resourceName: 'example.com/bar', deviceIds: ['x'] },
      { resourceName: 'example.com/foo', deviceIds: ['a'], topology: { nodes: [{ ID: 1 }] } },
      { resourceName: 'example.com/foo', deviceIds: ['b'], topology: { nodes: [{ ID: 0 }] } },
      { resourceName: 'example.com/foo', deviceIds: ['b'], topology: { nodes: [{ ID: 1 }] } },
    ],
  );
});
