/**
 * The pod resources API on a unix socket, read by a gRPC client built only from the proto file
 * (proto/podresources/v1/api.proto, upstream's names and numbers) with its own loader options (snake_case
 * fields, int64 as strings): nothing of the server's code or types. Expected values follow the API definition
 * and the kubelet's server (pkg/kubelet/apis/podresources, v1.28): error texts, code Unknown for handler
 * errors, ResourceExhausted "rejected by rate limit" past 100 qps / burst 10, the socket dir 0750.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { RecordingLogger } from '../util/logger.ts';
import { DeviceManager } from '../cm/devicemanager/manager.ts';
import { TestDevicePlugin } from '../cm/devicemanager/testing/test-device-plugin.ts';
import { PodResourcesLister } from './lister.ts';
import { servePodResources } from './server.ts';
import { deviceManagerProvider } from './device-provider.ts';
import { NO_CPUS, NO_MEMORY, type PodResourcesProviders } from './types.ts';
import { podResourcesProtoClient } from './testing/proto-client.ts';

const pod = (name: string, uid: string, res?: Record<string, string>): V1Pod => ({
  metadata: { name, namespace: 'default', uid },
  spec: { initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'app', image: 'busybox', ...(res ? { resources: { limits: res } } : {}) }, { name: 'side', image: 'busybox' }] },
});

async function serve(t: { after(fn: () => Promise<void>): void }, providers: PodResourcesProviders, getEnabled = false) {
  const root = await mkdtemp(path.join(tmpdir(), 'nodelet-podres-'));
  const socket = path.join(root, 'pod-resources', 'kubelet.sock');
  const clock = new FakeClock();
  const server = await servePodResources(socket, new PodResourcesLister(providers, { getEnabled }), { clock, logger: new RecordingLogger().logger });
  const c = podResourcesProtoClient(socket);
  t.after(async () => {
    c.close();
    await server.close();
    await rm(root, { recursive: true, force: true });
  });
  return { root, socket, clock, c };
}

const fakeProviders = (pods: V1Pod[]): PodResourcesProviders => ({
  pods: { getPods: () => pods, getPodByName: (ns, n) => pods.find((p) => p.metadata?.namespace === ns && p.metadata?.name === n) },
  devices: {
    updateAllocatedDevices: () => undefined,
    getDevices: (uid, c) => (uid === 'u1' && c === 'app' ? [{ resourceName: 'example.com/gpu', deviceIds: ['gpu-0'], topology: { nodes: [{ ID: 1 }] } }] : []),
    getAllocatableDevices: () => [{ resourceName: 'example.com/gpu', deviceIds: ['gpu-0'], topology: { nodes: [{ ID: 1 }] } }, { resourceName: 'example.com/gpu', deviceIds: ['gpu-1'] }],
  },
  cpus: { getCPUs: (uid, c) => (uid === 'u1' && c === 'app' ? [4, 5] : []), getAllocatableCPUs: () => [1, 2, 3, 4, 5] },
  memory: {
    getMemory: (uid, c) => (uid === 'u1' && c === 'app' ? [{ memoryType: 'memory', size: 2 ** 31, topology: { nodes: [{ ID: 1 }] } }] : []),
    getAllocatableMemory: () => [{ memoryType: 'hugepages-2Mi', size: 2 ** 21 * 8, topology: { nodes: [{ ID: 0 }] } }],
  },
});

const empty = (name: string) => ({ name, devices: [], cpu_ids: [], memory: [], dynamic_resources: [] });

test('List, GetAllocatableResources and Get over the wire; Get off by default; the socket dir 0750 (a stale socket file replaced)', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'nodelet-podres-stale-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(path.join(root, 'pod-resources'));
  await writeFile(path.join(root, 'pod-resources', 'kubelet.sock'), 'stale');
  const stale = await servePodResources(path.join(root, 'pod-resources', 'kubelet.sock'), new PodResourcesLister(fakeProviders([])), { clock: new FakeClock(), logger: new RecordingLogger().logger });
  assert.ok((await stat(stale.socket)).isSocket());
  await stale.close();

  const { socket, c } = await serve(t, fakeProviders([pod('p1', 'u1')]));
  assert.equal((await stat(path.dirname(socket))).mode & 0o777, 0o750);
  const list = await c.call('List');
  assert.equal(list.err, null);
  assert.deepEqual(list.res, {
    pod_resources: [
      {
        name: 'p1',
        namespace: 'default',
        containers: [
          { name: 'app', devices: [{ resource_name: 'example.com/gpu', device_ids: ['gpu-0'], topology: { nodes: [{ ID: '1' }] } }], cpu_ids: ['4', '5'], memory: [{ memory_type: 'memory', size: '2147483648', topology: { nodes: [{ ID: '1' }] } }], dynamic_resources: [] },
          empty('side'),
        ],
      },
    ],
  });
  const alloc = await c.call('GetAllocatableResources');
  assert.deepEqual(alloc.res, {
    devices: [
      { resource_name: 'example.com/gpu', device_ids: ['gpu-0'], topology: { nodes: [{ ID: '1' }] } },
      { resource_name: 'example.com/gpu', device_ids: ['gpu-1'], topology: null },
    ],
    cpu_ids: ['1', '2', '3', '4', '5'],
    memory: [{ memory_type: 'hugepages-2Mi', size: '16777216', topology: { nodes: [{ ID: '0' }] } }],
  });
  const get = await c.call('Get', { pod_name: 'p1', pod_namespace: 'default' });
  assert.equal(get.err?.code, grpc.status.UNKNOWN);
  assert.equal(get.err?.details, 'PodResources API Get method disabled');
});

test('Get with KubeletPodResourcesGet on: the pod, or the kubelet error naming it', async (t) => {
  const { c } = await serve(t, fakeProviders([pod('p1', 'u1')]), true);
  const got = await c.call('Get', { pod_name: 'p1', pod_namespace: 'default' });
  assert.deepEqual(got.res.pod_resources.containers.map((x: { name: string; cpu_ids: string[] }) => [x.name, x.cpu_ids]), [['app', ['4', '5']], ['side', []]]);
  const missing = await c.call('Get', { pod_name: 'p9', pod_namespace: 'kube-system' });
  assert.equal(missing.err?.code, grpc.status.UNKNOWN);
  assert.equal(missing.err?.details, 'pod p9 in namespace kube-system not found');
});

test('the rate limit: a burst of 10, then ResourceExhausted "rejected by rate limit" until a token comes back (100 per second)', async (t) => {
  const { c, clock } = await serve(t, fakeProviders([]));
  const codes: Array<number | undefined> = [];
  for (let i = 0; i < 11; i++) codes.push((await c.call('List')).err?.code);
  assert.deepEqual(codes, [...Array(10).fill(undefined), grpc.status.RESOURCE_EXHAUSTED]);
  assert.equal((await c.call('GetAllocatableResources')).err?.details, 'rejected by rate limit');
  await clock.step(10);
  assert.equal((await c.call('List')).err, null);
  assert.equal((await c.call('List')).err?.code, grpc.status.RESOURCE_EXHAUSTED);
});

test('devices from the device manager: an admitted pod lists its device, allocatable lists the healthy ones; a pod no longer active frees it', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'nodelet-podres-dm-'));
  const clock = new FakeClock();
  const dm = new DeviceManager({ clock, logger: new RecordingLogger().logger, dir });
  await dm.start();
  const plugin = new TestDevicePlugin({ dir, resource: 'example.com/foo', deviceIds: ['dev-a', 'dev-b'] });
  await plugin.serve();
  t.after(async () => {
    await plugin.stop();
    await dm.stop();
    await rm(dir, { recursive: true, force: true });
  });
  await plugin.register();
  for (let i = 0; i < 500 && dm.capacity().allocatable['example.com/foo'] !== 2; i++) await new Promise((r) => setTimeout(r, 10));
  const p = pod('p1', 'u1', { 'example.com/foo': '1' });
  assert.deepEqual(dm.admit(p, []), { admit: true });
  let active = [p];
  const { c } = await serve(t, { pods: { getPods: () => [p], getPodByName: () => p }, devices: deviceManagerProvider(dm, () => active), cpus: NO_CPUS, memory: NO_MEMORY });
  const list = await c.call('List');
  assert.deepEqual(list.res.pod_resources[0].containers, [{ ...empty('app'), devices: [{ resource_name: 'example.com/foo', device_ids: ['dev-a'], topology: null }] }, empty('side')]);
  const alloc = await c.call('GetAllocatableResources');
  assert.deepEqual(alloc.res.devices, [
    { resource_name: 'example.com/foo', device_ids: ['dev-a'], topology: null },
    { resource_name: 'example.com/foo', device_ids: ['dev-b'], topology: null },
  ]);
  active = [];
  assert.deepEqual((await c.call('List')).res.pod_resources[0].containers, [empty('app'), empty('side')]);
});
