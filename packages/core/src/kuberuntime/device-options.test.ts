import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerConfig } from '../cri/types.ts';
import { applyDeviceOptions } from './device-options.ts';

// The kubelet: GenerateRunContainerOptions puts the device envs and mounts first (opts.Envs / opts.Mounts are
// appended to), generateContainerConfig maps opts.Devices to CRI Devices and newContainerAnnotations lets the
// kubelet's own annotations override the device plugin's.
test('device plugin options in the CRI config: envs and mounts first, devices, annotations under the kubelet ones', () => {
  const config: ContainerConfig = {
    envs: [{ key: 'TEST_DEVICES', value: Buffer.from('from-pod') }],
    mounts: [{ containerPath: '/data', hostPath: '/var/lib/kubelet/pods/u/volumes/x' }],
    annotations: { 'io.kubernetes.container.hash': 'abc' },
  };
  applyDeviceOptions(config, {
    envs: [{ key: 'TEST_DEVICES', value: 'dev-a' }],
    mounts: [{ containerPath: '/devices/dev-a', hostPath: '/srv/dev-a', readonly: true }],
    devices: [{ containerPath: '/dev/foo0', hostPath: '/dev/foo0', permissions: 'rw' }],
    annotations: { 'io.kubernetes.container.hash': 'plugin', 'example.com/x': '1' },
    cdiDevices: ['example.com/foo=dev-a'],
  });
  assert.deepEqual(config.envs?.map((e) => [e.key, String(e.value)]), [['TEST_DEVICES', 'dev-a'], ['TEST_DEVICES', 'from-pod']]);
  assert.deepEqual(config.mounts?.map((m) => m.containerPath), ['/devices/dev-a', '/data']);
  assert.equal(config.mounts?.[0]?.readonly, true);
  assert.deepEqual(config.devices, [{ containerPath: '/dev/foo0', hostPath: '/dev/foo0', permissions: 'rw' }]);
  assert.deepEqual(config.annotations, { 'io.kubernetes.container.hash': 'abc', 'example.com/x': '1' });
  assert.deepEqual(config.CDIDevices, [{ name: 'example.com/foo=dev-a' }]);
});

test('no allocation leaves the config untouched', () => {
  const config: ContainerConfig = { envs: [], annotations: { a: 'b' } };
  applyDeviceOptions(config, { envs: [], mounts: [], devices: [], annotations: {}, cdiDevices: [] });
  assert.deepEqual(config, { envs: [], annotations: { a: 'b' } });
});
