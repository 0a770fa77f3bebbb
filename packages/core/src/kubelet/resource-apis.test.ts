/**
 * The resource APIs' wiring on a host: `<root-dir>/plugins_registry` (0755) watched, the pod resources socket in
 * `<root-dir>/pod-resources` (0750), the kubelet's DEPRECATION file in the device plugin dir, the Get gate from
 * featureGates; nothing without a host file system.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { DeviceManager } from '../cm/devicemanager/manager.ts';
import { BasicPodManager } from '../pod/basic-pod-manager.ts';
import { buildResourceApis, cpuManagerProvider } from './resource-apis.ts';
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
