/**
 * Plugin registration over real gRPC: plugins serving pluginregistration on sockets in plugins_registry, the
 * plugin manager dialling them, and the device manager as the DevicePlugin handler connecting a real device
 * plugin. Expected texts: the kubelet's operation_generator.go and devicemanager/plugin/v1beta1/handler.go
 * (v1.28); the endpoint check is Nodelet's own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeClock } from '../util/clock.ts';
import { RecordingLogger } from '../util/logger.ts';
import { DeviceManager } from '../cm/devicemanager/manager.ts';
import { grpcEndpointConnector } from '../cm/devicemanager/endpoint.ts';
import { devicePluginHandler, endpointError } from '../cm/devicemanager/plugin-handler.ts';
import { TestDevicePlugin } from '../cm/devicemanager/testing/test-device-plugin.ts';
import { DevicePluginStub } from '../cm/devicemanager/plugin-stub.ts';
import { PluginManager } from './manager.ts';
import { CSI_PLUGIN, DEVICE_PLUGIN, type PluginInfoMessage } from './types.ts';
import { RegistrationPlugin } from './testing/registration-plugin.ts';
import { until } from './testing/until.ts';

const RES = 'example.com/foo';

async function setup(t: { after(fn: () => Promise<void>): void }) {
  const root = await mkdtemp(path.join(tmpdir(), 'nodelet-pr-'));
  const registry = path.join(root, 'plugins_registry');
  const dpDir = path.join(root, 'device-plugins');
  const pluginsDir = path.join(root, 'plugins');
  await mkdir(path.join(pluginsDir, 'example'), { recursive: true });
  const clock = new FakeClock();
  const log = new RecordingLogger();
  const dm = new DeviceManager({ clock, logger: log.logger, dir: dpDir, graceMs: 60_000, connect: grpcEndpointConnector({ dialMs: 2_000, allocateMs: 1_000, preStartMs: 1_000 }) });
  await dm.start();
  const pm = new PluginManager({ clock, logger: log.logger, dir: registry, timeouts: { dialMs: 2_000, getInfoMs: 300, notifyMs: 2_000 } });
  const allowed = [registry, pluginsDir, dpDir];
  pm.addHandler(DEVICE_PLUGIN, devicePluginHandler(dm, registry, allowed));
  const device = new TestDevicePlugin({ dir: path.join(pluginsDir, 'example'), resource: RES, endpoint: 'dp.sock', deviceIds: ['dev-a', 'dev-b'] });
  await device.serve();
  await mkdir(registry, { recursive: true });
  const plugins: RegistrationPlugin[] = [];
  const plugin = async (name: string, info: Partial<PluginInfoMessage>, extra: { hangGetInfo?: boolean } = {}) => {
    const p = new RegistrationPlugin({ socket: path.join(registry, name), info: { type: DEVICE_PLUGIN, name: RES, endpoint: device.socket, supportedVersions: ['v1beta1'], ...info }, ...extra });
    await p.serve();
    plugins.push(p);
    return p;
  };
  t.after(async () => {
    await pm.stop();
    for (const p of plugins) await p.stop();
    await device.stop();
    await dm.stop();
    await rm(root, { recursive: true, force: true });
  });
  return { root, registry, allowed, log, dm, pm, device, plugin };
}

test('a device plugin registering through plugins_registry: connected, told registered; its socket removed → disconnected', async (t) => {
  const { dm, pm, plugin } = await setup(t);
  const reg = await plugin('example.sock', {});
  await pm.start();
  assert.deepEqual(await reg.statusCount(1), [{ pluginRegistered: true, error: '' }]);
  await until('devices', () => dm.capacity().allocatable[RES] === 2);
  await reg.stop();
  await until('socket gone', () => !pm.dsw.pluginExists(reg.socket));
  pm.reconcile();
  await pm.settled();
  // DeRegisterPlugin: the endpoint is disconnected, its devices unhealthy for the grace period.
  assert.deepEqual(dm.capacity(), { capacity: { [RES]: 2 }, allocatable: { [RES]: 0 }, removed: [] });
});

test('refusals in the kubelet words; a hung GetInfo times out while the others register', async (t) => {
  const { root, allowed, log, dm, pm, plugin } = await setup(t);
  const old = await plugin('old.sock', { name: 'example.com/old', supportedVersions: ['v1alpha1', 'v2'] });
  const badName = await plugin('bad-name.sock', { name: 'foo' });
  const elsewhere = path.join(root, 'elsewhere.sock');
  const outside = await plugin('outside.sock', { name: 'example.com/out', endpoint: elsewhere });
  const csi = await plugin('csi.sock', { type: CSI_PLUGIN, name: 'csi.example.com', endpoint: '' });
  const hung = await plugin('hung.sock', {}, { hangGetInfo: true });
  const good = await plugin('good.sock', {});
  await pm.start();
  await pm.settled();
  const failed = (msg: string) => [{ pluginRegistered: false, error: msg }];
  assert.deepEqual(old.statuses, failed('RegisterPlugin error -- plugin validation failed with err: manager version, v1beta1, is not among plugin supported versions [v1alpha1 v2]'));
  assert.deepEqual(badName.statuses, failed('RegisterPlugin error -- plugin validation failed with err: invalid name of device plugin socket: the ResourceName "foo" is invalid'));
  assert.deepEqual(outside.statuses, failed(`RegisterPlugin error -- plugin validation failed with err: invalid endpoint ${JSON.stringify(elsewhere)}: the plugin socket must be under ${allowed.join(', ')}`));
  assert.deepEqual(csi.statuses, failed(`RegisterPlugin error -- no handler registered for plugin type: CSIPlugin at socket ${csi.socket}`));
  assert.equal(hung.getInfoCalls, 1);
  assert.deepEqual(hung.statuses, []);
  assert.ok(
    log.records.some((r) => r.err === `RegisterPlugin error -- failed to get plugin info using RPC GetInfo at socket ${hung.socket}, err: rpc error: code = DeadlineExceeded desc = context deadline exceeded`),
    'the GetInfo timeout is logged',
  );
  assert.deepEqual(good.statuses, [{ pluginRegistered: true, error: '' }]);
  await until('devices', () => dm.capacity().allocatable[RES] === 2);
  assert.deepEqual(pm.registeredPlugins().map((p) => path.basename(p.socketPath)), ['good.sock']);
});

test('the endpoint check: normalised first (".." cannot leave the directories), then the real path (a symlink out is refused)', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'nodelet-ep-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const registry = path.join(root, 'plugins_registry');
  await mkdir(registry);
  const dirs = [registry, path.join(root, 'plugins')];
  const refused = (e: string) => `invalid endpoint ${JSON.stringify(e)}: the plugin socket must be under ${dirs.join(', ')}`;
  assert.equal(await endpointError('dp.sock', registry, dirs), undefined);
  assert.equal(await endpointError(path.join(root, 'plugins', 'x', 'dp.sock'), registry, dirs), undefined);
  assert.equal(await endpointError('../elsewhere.sock', registry, dirs), refused('../elsewhere.sock'));
  assert.equal(await endpointError(`${registry}/../../etc/x.sock`, registry, dirs), refused(`${registry}/../../etc/x.sock`));
  assert.equal(await endpointError(registry, registry, dirs), refused(registry));
  await symlink(path.join(root, 'elsewhere.sock'), path.join(registry, 'link.sock'));
  await writeFile(path.join(root, 'elsewhere.sock'), '');
  assert.equal(await endpointError('link.sock', registry, dirs), refused('link.sock'));
});

test('the DevicePlugin handler with a recording device manager: ValidatePlugin checks, RegisterPlugin connects the endpoint, DeRegisterPlugin disconnects it', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'nodelet-ph-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const registry = path.join(root, 'plugins_registry');
  await mkdir(registry);
  const calls: string[] = [];
  const dm = { register: async (r: string, ep: string) => void calls.push(`register ${r} ${ep}`), deregister: (r: string, ep: string) => void calls.push(`deregister ${r} ${ep}`) };
  const h = devicePluginHandler(dm as unknown as DeviceManager, registry, [registry]);
  await h.validatePlugin(RES, 'dp.sock', ['v1alpha1', 'v1beta1']);
  await assert.rejects(async () => h.validatePlugin(RES, 'dp.sock', ['v1']), { message: 'manager version, v1beta1, is not among plugin supported versions [v1]' });
  await assert.rejects(async () => h.validatePlugin('kubernetes.io/foo', 'dp.sock', ['v1beta1']), { message: 'invalid name of device plugin socket: the ResourceName "kubernetes.io/foo" is invalid' });
  await h.registerPlugin(RES, 'dp.sock', ['v1beta1']);
  h.deRegisterPlugin(RES, path.join(registry, 'dp.sock'));
  assert.deepEqual(calls, [`register ${RES} ${path.join(registry, 'dp.sock')}`, `deregister ${RES} ${path.join(registry, 'dp.sock')}`]);
});

test('DevicePluginStub with pluginWatcher: one socket in plugins_registry serving Registration and DevicePlugin, as upstream\'s Stub; registered, devices listed', async (t) => {
  const { registry, dm, pm } = await setup(t);
  const statuses: Array<[boolean, string]> = [];
  const stub = new DevicePluginStub({ dir: registry, endpoint: 'watched.sock', resource: 'example.com/watched', devices: [{ id: 'w-0', healthy: true }], pluginWatcher: { onStatus: (ok, err) => void statuses.push([ok, err]) } });
  await stub.serve();
  t.after(() => stub.stop());
  await pm.start();
  await until('registered', () => statuses.length === 1);
  assert.deepEqual(statuses, [[true, '']]);
  await until('devices', () => dm.capacity().allocatable['example.com/watched'] === 1);
  assert.deepEqual(pm.registeredPlugins().map((p) => [p.type, p.name, p.endpoint]), [[DEVICE_PLUGIN, 'example.com/watched', stub.socket]]);
});
