/**
 * The resource APIs' wiring on a host: `<root-dir>/plugins_registry` (0755) watched, the pod resources socket in
 * `<root-dir>/pod-resources` (0750), the kubelet's DEPRECATION file in the device plugin dir, the Get gate from
 * featureGates; nothing without a host file system.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { DeviceManager } from '../cm/devicemanager/manager.ts';
import { BasicPodManager } from '../pod/basic-pod-manager.ts';
import { RegistrationPlugin } from '../pluginmanager/testing/registration-plugin.ts';
import { buildResourceApis, cpuManagerProvider, refusalEvent } from './resource-apis.ts';
import { CPUSet } from '../cm/topology/cpuset.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';

test('on a host: the registry watched, the pod resources socket served, DEPRECATION written; the Get gate from featureGates', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'nodelet-rapi-'));
  const clock = new FakeClock();
  const devices = new DeviceManager({ clock, logger: nullLogger, dir: path.join(root, 'device-plugins') });
  await devices.start();
  const deps = { clock, logger: nullLogger, hostFs: {} } as unknown as KubeletDeps;
  const apis = buildResourceApis(deps, { rootDir: root, featureGates: { KubeletPodResourcesGet: true } } as unknown as KubeletConfig, { devices, pods: new BasicPodManager(), activePods: () => [] })!;
  await apis.start();
  t.after(async () => {
    await apis.stop();
    await devices.stop();
    await rm(root, { recursive: true, force: true });
  });
  assert.equal((await stat(path.join(root, 'plugins_registry'))).mode & 0o777, 0o755);
  assert.equal((await stat(path.join(root, 'pod-resources'))).mode & 0o777, 0o750);
  assert.ok((await stat(apis.podResourcesSocket)).isSocket());
  assert.ok((await stat(path.join(root, 'device-plugins', 'DEPRECATION'))).isFile());
  assert.throws(() => apis.lister.get('p', 'default'), { message: 'pod p in namespace default not found' });
  const off = buildResourceApis(deps, { rootDir: root } as KubeletConfig, { devices: undefined, pods: new BasicPodManager(), activePods: () => [] })!;
  assert.throws(() => off.lister.get('p', 'default'), { message: 'PodResources API Get method disabled' });
  assert.equal(buildResourceApis({ clock, logger: nullLogger } as unknown as KubeletDeps, { rootDir: root } as KubeletConfig, { devices, pods: new BasicPodManager(), activePods: () => [] }), undefined);
});

test('the CPU manager as the CPUs provider: exclusive CPUs per container, the allocatable set', () => {
  const p = cpuManagerProvider({ getExclusiveCPUs: (uid, c) => (uid === 'u1' && c === 'app' ? CPUSet.of(3, 1) : CPUSet.of()), getAllocatableCPUs: () => CPUSet.parse('1-3') });
  assert.deepEqual([p.getCPUs('u1', 'app'), p.getCPUs('u1', 'side'), p.getAllocatableCPUs()], [[1, 3], [], [1, 2, 3]]);
});

test('a registration the plugin manager refuses reaches the bus as a device registrationFailed event (the lifecycle tail)', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'nodelet-rapi-'));
  const clock = new FakeClock();
  const devices = new DeviceManager({ clock, logger: nullLogger, dir: path.join(root, 'device-plugins') });
  await devices.start();
  const published: unknown[] = [];
  const bus = { publish: (e: unknown) => void published.push(e) } as never;
  const deps = { clock, logger: nullLogger, hostFs: {} } as unknown as KubeletDeps;
  const apis = buildResourceApis(deps, { rootDir: root } as KubeletConfig, { devices, pods: new BasicPodManager(), activePods: () => [], bus })!;
  await mkdir(path.join(root, 'plugins_registry'));
  const old = new RegistrationPlugin({ socket: path.join(root, 'plugins_registry', 'old.sock'), info: { type: 'DevicePlugin', name: 'example.com/old', supportedVersions: ['v1alpha1'] } });
  await old.serve();
  t.after(async () => {
    await apis.stop();
    await old.stop();
    await devices.stop();
    await rm(root, { recursive: true, force: true });
  });
  await apis.start();
  await old.statusCount(1);
  await apis.plugins.settled();
  const msg = 'RegisterPlugin error -- plugin validation failed with err: manager version, v1beta1, is not among plugin supported versions [v1alpha1]';
  assert.deepEqual(published, [{ type: 'device', resource: 'example.com/old', change: 'registrationFailed', message: msg }]);
  assert.deepEqual(refusalEvent({ socketPath: '/r/plugins_registry/hung.sock', message: 'x' }), { type: 'device', resource: '/r/plugins_registry/hung.sock', change: 'registrationFailed', message: 'x' }, 'no name without GetInfo: the socket');
});
