/**
 * The device manager against a real gRPC device plugin (testing/test-device-plugin.ts) over unix sockets:
 * registration, capacity, admission, Allocate/PreStart/GetPreferredAllocation, health, removal and restart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../../util/clock.ts';
import { RecordingLogger } from '../../util/logger.ts';
import { DeviceManager } from './manager.ts';
import { grpcEndpointConnector } from './endpoint.ts';
import { Registry } from 'prom-client';
import { createKubeletMetrics } from '../../metrics/kubelet-metrics.ts';
import { TestDevicePlugin } from './testing/test-device-plugin.ts';

const RES = 'example.com/foo';

function pod(uid: string, n: number, extra: Partial<V1Pod['spec']> = {}): V1Pod {
  return { metadata: { uid, name: uid, namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'busybox', resources: { limits: { [RES]: String(n) } } }], ...extra } };
}

async function until(what: string, fn: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !fn(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(fn(), `timed out waiting for ${what}`);
}

async function setup(t: { after(fn: () => Promise<void>): void }, plugin: Partial<ConstructorParameters<typeof TestDevicePlugin>[0]> = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'nodelet-dm-'));
  const clock = new FakeClock();
  const log = new RecordingLogger();
  let sources: V1Pod[] = [];
  const registry = new Registry();
  const metrics = createKubeletMetrics(registry);
  const mk = () => new DeviceManager({ clock, logger: log.logger, dir, graceMs: 60_000, sourcePods: () => sources, metrics, connect: grpcEndpointConnector({ dialMs: 2_000, allocateMs: 1_000, preStartMs: 1_000 }) });
  const m = mk();
  await m.start();
  const p = new TestDevicePlugin({ dir, resource: RES, deviceIds: ['dev-a', 'dev-b'], ...plugin });
  await p.serve();
  const env = { dir, clock, log, m, p, mk, registry, managers: [m], setSources: (pods: V1Pod[]) => (sources = pods) };
  t.after(async () => {
    await p.stop();
    for (const x of env.managers) await x.stop();
    await rm(dir, { recursive: true, force: true });
  });
  return env;
}

test('a plugin registers, its devices become capacity; a pod gets its env, mounts, devices and annotations', async (t) => {
  const { m, p, dir } = await setup(t, { preStartRequired: true });
  await p.register();
  await until('devices', () => m.capacity().capacity[RES] === 2);
  assert.deepEqual(m.capacity(), { capacity: { [RES]: 2 }, allocatable: { [RES]: 2 }, removed: [] });
  const a = pod('p1', 1);
  assert.deepEqual(m.admit(a, []), { admit: true });
  const r = await m.prepareContainer(a, a.spec!.containers[0]!);
  assert.ok(r.ok, !r.ok ? r.message : '');
  assert.deepEqual(r.opts.envs, [{ key: 'TEST_DEVICES', value: 'dev-a' }]);
  assert.deepEqual(r.opts.mounts, [{ containerPath: '/devices/dev-a', hostPath: path.join(dir, 'dev-a'), readonly: true }]);
  assert.deepEqual(r.opts.devices, [{ containerPath: '/dev/testdev0', hostPath: '/dev/null', permissions: 'rw' }]);
  assert.deepEqual(r.opts.annotations, { 'example.com/test-devices': 'dev-a' });
  assert.deepEqual(p.calls.map((c) => c.rpc), ['GetDevicePluginOptions', 'ListAndWatch', 'Allocate', 'PreStartContainer']);
  assert.deepEqual(p.calls[3]!.ids, ['dev-a']);
  // The allocation is in the kubelet's checkpoint.
  const cp = JSON.parse(await readFile(m.checkpointPath, 'utf8'));
  assert.deepEqual(cp.Data.PodDeviceEntries.map((e: { PodUID: string; DeviceIDs: unknown }) => [e.PodUID, e.DeviceIDs]), [['p1', { '-1': ['dev-a'] }]]);
  assert.deepEqual(cp.Data.RegisteredDevices, { [RES]: ['dev-a', 'dev-b'] });
});

test('more devices than there are: UnexpectedAdmissionError with the kubelet message; taken devices count', async (t) => {
  const { m, p } = await setup(t);
  await p.register();
  await until('devices', () => m.capacity().allocatable[RES] === 2);
  assert.deepEqual(m.admit(pod('big', 3), []), {
    admit: false,
    reason: 'UnexpectedAdmissionError',
    message: 'Allocate failed due to requested number of devices unavailable for example.com/foo. Requested: 3, Available: 2, which is unexpected',
  });
  const a = pod('p1', 2);
  assert.deepEqual(m.admit(a, []), { admit: true });
  assert.equal(m.admit(pod('p2', 1), [a]).admit, false);
  assert.deepEqual(m.admit(pod('p3', 1), []), { admit: true }, 'p1 is no longer active: its devices are free again');
});

test('GetPreferredAllocation picks the devices when the plugin offers it', async (t) => {
  const { m, p } = await setup(t, { getPreferredAllocationAvailable: true });
  await p.register();
  await until('devices', () => m.capacity().allocatable[RES] === 2);
  const a = pod('p1', 1);
  assert.ok(m.admit(a, []).admit);
  const r = await m.prepareContainer(a, a.spec!.containers[0]!);
  assert.ok(r.ok);
  assert.deepEqual(p.calls.find((c) => c.rpc === 'GetPreferredAllocation')?.ids, ['dev-a', 'dev-b']);
  assert.deepEqual(p.calls.find((c) => c.rpc === 'Allocate')?.ids, ['dev-b'], 'the plugin preferred the last one');
});

test('registration refused: wrong version, bad name, unreachable endpoint; the manager keeps serving', async (t) => {
  const { m, p, dir } = await setup(t);
  const bad = new TestDevicePlugin({ dir, resource: RES, deviceIds: ['x'], version: 'v1alpha' });
  await assert.rejects(bad.register(), { code: 2, message: 'requested API version "v1alpha" is not supported by kubelet. Supported versions are ["v1beta1"]' });
  await assert.rejects(new TestDevicePlugin({ dir, resource: 'foo', deviceIds: [] }).register(), { code: 2, message: 'the ResourceName "foo" is invalid' });
  await assert.rejects(new TestDevicePlugin({ dir, resource: RES, deviceIds: [], endpoint: 'nobody.sock' }).register(), /^Error: failed to dial device plugin: /);
  await p.register();
  await until('devices', () => m.capacity().allocatable[RES] === 2);
});

test('health changes move allocatable; a plugin that goes away leaves unhealthy devices, then none after the grace period', async (t) => {
  const { m, p, clock } = await setup(t);
  await p.register();
  await until('devices', () => m.capacity().allocatable[RES] === 2);
  p.setHealth('dev-b', false);
  await until('unhealthy', () => m.capacity().allocatable[RES] === 1);
  assert.equal(m.capacity().capacity[RES], 2);
  await p.stop();
  await until('disconnect', () => m.capacity().allocatable[RES] === 0);
  assert.equal(m.capacity().capacity[RES], 2);
  await clock.step(60_001);
  assert.deepEqual(m.capacity(), { capacity: {}, allocatable: {}, removed: [RES] });
});

test('restart: the checkpointed allocation comes back and is not allocated again', async (t) => {
  const env = await setup(t);
  const { m, p } = env;
  await p.register();
  await until('devices', () => m.capacity().allocatable[RES] === 2);
  const a = pod('p1', 1);
  assert.ok(m.admit(a, []).admit);
  assert.ok((await m.prepareContainer(a, a.spec!.containers[0]!)).ok);
  await m.stop();
  const m2 = env.mk();
  env.managers.push(m2);
  await m2.start();
  // Restored resource: registered, no healthy device until the plugin registers again.
  assert.deepEqual(m2.capacity(), { capacity: { [RES]: 0 }, allocatable: { [RES]: 0 }, removed: [] });
  // The kubelet removed the sockets in its dir on start; a plugin serves again and re-registers.
  await p.stop();
  await p.serve();
  await p.register();
  await until('devices', () => m2.capacity().allocatable[RES] === 2);
  const before = p.calls.filter((c) => c.rpc === 'Allocate').length;
  assert.deepEqual(m2.admit(a, []), { admit: true });
  const r = await m2.prepareContainer(a, a.spec!.containers[0]!);
  assert.ok(r.ok);
  assert.deepEqual(r.opts.envs, [{ key: 'TEST_DEVICES', value: 'dev-a' }]);
  assert.equal(p.calls.filter((c) => c.rpc === 'Allocate').length, before, 'no second Allocate');
  assert.equal(m2.admit(pod('p2', 2), [a]).admit, false, 'dev-a is still held');
});

test('a corrupt checkpoint: a log line naming the file, and a clean start', async (t) => {
  const env = await setup(t);
  await env.m.stop();
  await writeFile(env.m.checkpointPath, '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{}},"Checksum":1}');
  const m2 = env.mk();
  env.managers.push(m2);
  await m2.start();
  const line = env.log.records.find((r) => r.msg.startsWith('Continue after failing to read checkpoint file'));
  assert.ok(line);
  assert.equal(line.file, env.m.checkpointPath);
  assert.equal(line.err, "checkpoint is corrupted");
});

test('re-admission one pod at a time: an earlier pod does not free the devices of a later pod its source still holds', async (t) => {
  const { m, p, setSources } = await setup(t);
  await p.register();
  await until('devices', () => m.capacity().allocatable[RES] === 2);
  const late = pod('late', 1);
  assert.ok(m.admit(late, []).admit);
  const early = pod('early', 1);
  const done = { ...pod('done', 1), status: { phase: 'Succeeded' } };
  setSources([early, late, done]);
  assert.ok(m.admit(early, []).admit, 'the free device');
  assert.equal(m.admit(pod('third', 1), [early]).admit, false, 'late still holds its device');
  setSources([early]);
  assert.ok(m.admit(pod('third', 1), [early]).admit, 'late is gone from its source: freed');
});

test('a plugin that hangs in Allocate fails the container start within the timeout; the manager keeps serving', async (t) => {
  const { m, p, dir } = await setup(t, { allocateHangs: true });
  await p.register();
  await until('devices', () => m.capacity().allocatable[RES] === 2);
  const a = pod('p1', 1);
  assert.ok(m.admit(a, []).admit);
  const r = await m.prepareContainer(a, a.spec!.containers[0]!);
  assert.ok(!r.ok);
  assert.match(r.message, /^Deadline exceeded/);
  const other = new TestDevicePlugin({ dir, resource: 'example.com/bar', deviceIds: ['b0'] });
  await other.serve();
  t.after(() => other.stop());
  await other.register();
  await until('bar devices', () => m.capacity().allocatable['example.com/bar'] === 1);
});

test("a plugin's socket removed: its devices turn unhealthy at once", async (t) => {
  const { m, p } = await setup(t);
  await p.register();
  await until('devices', () => m.capacity().allocatable[RES] === 2);
  await rm(p.socket);
  await until('unhealthy', () => m.capacity().allocatable[RES] === 0);
  assert.equal(m.capacity().capacity[RES], 2);
});

test('kubelet_device_plugin_registration_total counts every request; kubelet_device_plugin_alloc_duration_seconds each Allocate', async (t) => {
  const { m, p, dir, registry } = await setup(t);
  await assert.rejects(new TestDevicePlugin({ dir, resource: RES, deviceIds: [], version: 'v0' }).register());
  await p.register();
  await until('devices', () => m.capacity().allocatable[RES] === 2);
  const a = pod('p1', 1);
  assert.ok(m.admit(a, []).admit);
  assert.ok((await m.prepareContainer(a, a.spec!.containers[0]!)).ok);
  const text = await registry.metrics();
  assert.match(text, /^kubelet_device_plugin_registration_total\{resource_name="example.com\/foo"\} 2$/m);
  assert.match(text, /^kubelet_device_plugin_alloc_duration_seconds_count\{resource_name="example.com\/foo"\} 1$/m);
});

test('GetPreferredAllocation under a NUMA affinity (devicesToAllocate): the plugin chooses among the aligned devices; too few aligned are kept', async (t) => {
  const { m, p } = await setup(t, { getPreferredAllocationAvailable: true, deviceIds: ['dev-a', 'dev-b', 'dev-c', 'dev-d'] });
  await p.register();
  p.update(['dev-a', 'dev-b', 'dev-c', 'dev-d'].map((id, i) => ({ id, healthy: true, numaNodes: [i % 2] })));
  await until('devices on NUMA nodes', () => m.state.allDevices(RES).filter((d) => d.numaNodes.length > 0).length === 4);
  m.state.preferredNuma = () => [0];
  const one = pod('p1', 1);
  assert.ok(m.admit(one, []).admit);
  assert.ok((await m.prepareContainer(one, one.spec!.containers[0]!)).ok);
  // Aligned (node 0): dev-a, dev-c. The plugin prefers the last available: dev-c, not dev-d on node 1.
  assert.deepEqual(p.calls.filter((c) => c.rpc === 'GetPreferredAllocation').map((c) => c.ids), [['dev-a', 'dev-c']]);
  assert.deepEqual(p.calls.find((c) => c.rpc === 'Allocate')?.ids, ['dev-c']);
  // Two with one free on node 0 (dev-a): the aligned one is kept (mustInclude); the plugin's pick without it is refused.
  const two = pod('p2', 2);
  assert.ok(m.admit(two, [one]).admit);
  assert.ok((await m.prepareContainer(two, two.spec!.containers[0]!)).ok);
  assert.deepEqual(p.calls.filter((c) => c.rpc === 'GetPreferredAllocation').at(-1)?.ids, ['dev-a', 'dev-b', 'dev-d']);
  assert.ok(p.calls.filter((c) => c.rpc === 'Allocate').at(-1)?.ids.includes('dev-a'));
});
