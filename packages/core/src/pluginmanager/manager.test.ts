/**
 * The plugin manager (watcher, desired/actual state, reconciler, operations) with fake plugin clients and a
 * fake handler, on a real directory with real unix sockets and an injected clock. Expected texts are the
 * kubelet's (pkg/kubelet/pluginmanager/operationexecutor/operation_generator.go, v1.28).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import { FakeClock } from '../util/clock.ts';
import { createKubeletMetrics } from '../metrics/kubelet-metrics.ts';
import { RecordingLogger } from '../util/logger.ts';
import { PluginManager } from './manager.ts';
import { CSI_PLUGIN, DEVICE_PLUGIN, type DialPlugin, type PluginHandler, type PluginInfoMessage, type PluginRefusal } from './types.ts';
import { listenSocket, type TestSocket } from './testing/sockets.ts';
import { until } from './testing/until.ts';

class FakeHandler implements PluginHandler {
  readonly calls: string[] = [];
  validateError: string | undefined;
  registerError: string | undefined;
  validatePlugin(name: string, endpoint: string, versions: string[]): void {
    this.calls.push(`validate ${name} ${endpoint} ${versions.join(',')}`);
    if (this.validateError) throw new Error(this.validateError);
  }
  async registerPlugin(name: string, endpoint: string): Promise<void> {
    this.calls.push(`register ${name} ${endpoint}`);
    if (this.registerError) throw new Error(this.registerError);
  }
  deRegisterPlugin(name: string, endpoint: string): void {
    this.calls.push(`deregister ${name} ${endpoint}`);
  }
}

async function setup(t: { after(fn: () => Promise<void>): void }) {
  const root = await mkdtemp(path.join(tmpdir(), 'nodelet-pm-'));
  const dir = path.join(root, 'plugins_registry');
  await mkdir(dir);
  const clock = new FakeClock();
  const log = new RecordingLogger();
  /** socket → what its plugin answers GetInfo with (an Error: GetInfo fails with it); a socket not here fails to dial. */
  const infos = new Map<string, PluginInfoMessage | Error>();
  const talk: string[] = [];
  const dial: DialPlugin = async (socket) => {
    const info = infos.get(socket);
    talk.push(`dial ${path.basename(socket)}`);
    if (!info) throw new Error(`failed to dial socket ${socket}, err: context deadline exceeded`);
    return {
      getInfo: async () => {
        if (info instanceof Error) throw info;
        return info;
      },
      notifyRegistrationStatus: async (registered, error) => void talk.push(`notify ${registered} ${error}`),
      close: () => undefined,
    };
  };
  const registry = new Registry();
  const refusals: PluginRefusal[] = [];
  const m = new PluginManager({ clock, logger: log.logger, dir, dial, metrics: createKubeletMetrics(registry), onRefused: (r) => void refusals.push(r) });
  const handler = new FakeHandler();
  m.addHandler(DEVICE_PLUGIN, handler);
  const sockets: TestSocket[] = [];
  const sock = async (name: string, info?: Partial<PluginInfoMessage> | Error) => {
    const s = await listenSocket(path.join(dir, name));
    sockets.push(s);
    if (info) infos.set(s.path, info instanceof Error ? info : { type: DEVICE_PLUGIN, name: 'example.com/foo', endpoint: '', supportedVersions: ['v1beta1'], ...info });
    return s;
  };
  /** One reconciler pass, its operations finished. */
  const pass = async () => {
    await m.settled();
    m.reconcile();
    await m.settled();
  };
  t.after(async () => {
    await m.stop();
    for (const s of sockets) await s.close();
    await rm(root, { recursive: true, force: true });
  });
  return { root, dir, clock, log, m, handler, talk, sock, pass, registry, refusals, desired: () => m.dsw.pluginsToRegister().map((p) => path.relative(dir, p.socketPath)).sort() };
}

test('the watcher: sockets already there and new ones, in subdirectories too; dot names, plain files and symlinks ignored', async (t) => {
  const { root, dir, m, sock, desired } = await setup(t);
  await mkdir(path.join(dir, 'sub'));
  await sock('a.sock');
  await sock('.hidden.sock');
  await sock('sub/b.sock');
  await writeFile(path.join(dir, 'plain.sock'), '');
  const outside = await listenSocket(path.join(root, 'outside.sock'));
  t.after(() => outside.close());
  await symlink(outside.path, path.join(dir, 'link.sock'));
  await m.start();
  assert.deepEqual(desired(), ['a.sock', 'sub/b.sock']);
  const c = await sock('c.sock');
  await mkdir(path.join(dir, 'sub2'));
  await sock('sub2/d.sock');
  await until('new sockets', () => desired().length === 4);
  assert.deepEqual(desired(), ['a.sock', 'c.sock', 'sub/b.sock', 'sub2/d.sock']);
  await c.close();
  await until('c.sock removed', () => !desired().includes('c.sock'));
});

test('registration: GetInfo, ValidatePlugin, RegisterPlugin, NotifyRegistrationStatus(true); an empty endpoint is the socket', async (t) => {
  const { m, handler, talk, sock, pass, registry } = await setup(t);
  const s = await sock('foo.sock', { name: 'example.com/foo', endpoint: '' });
  await m.start();
  await m.settled();
  assert.deepEqual(handler.calls, [`validate example.com/foo ${s.path} v1beta1`, `register example.com/foo ${s.path}`]);
  assert.deepEqual(talk, ['dial foo.sock', 'notify true ']);
  assert.deepEqual(m.registeredPlugins().map((p) => [p.name, p.endpoint, p.type]), [['example.com/foo', s.path, DEVICE_PLUGIN]]);
  await pass();
  assert.equal(talk.length, 2, 'a registered plugin is not dialled again');
  const gauge = (await registry.getSingleMetric('plugin_manager_total_plugins')!.get()).values;
  assert.deepEqual(gauge.map((v) => [v.labels.state, v.labels.socket_path, v.value]).sort(), [['actual_state_of_world', s.path, 1], ['desired_state_of_world', s.path, 1]]);
});

test('a plugin type without a handler is told so, and retried only after the backoff (500 ms, doubling)', async (t) => {
  const { m, clock, log, talk, sock, pass } = await setup(t);
  const s = await sock('csi.sock', { type: CSI_PLUGIN, name: 'csi.example.com' });
  await m.start();
  await m.settled();
  const msg = `RegisterPlugin error -- no handler registered for plugin type: CSIPlugin at socket ${s.path}`;
  assert.deepEqual(talk, ['dial csi.sock', `notify false ${msg}`]);
  assert.deepEqual(m.registeredPlugins(), []);
  // notifyPlugin returns an error whenever it carries one, so the kubelet logs the "failed to send" wrapping.
  assert.ok(log.records.some((r) => r.err === `RegisterPlugin error -- failed to send error at socket ${s.path}, err: ${msg}`));
  const dials = () => talk.filter((x) => x.startsWith('dial')).length;
  // [ms since the last step, dials after a reconciler pass]: the retries at 500 ms, then 1 s after that.
  for (const [ms, want] of [[0, 1], [499, 1], [1, 2], [999, 2], [1, 3]] as const) {
    await clock.step(ms);
    await pass();
    assert.equal(dials(), want, `after +${ms} ms`);
  }
});

test('a failed dial, validation or registration: the kubelet words to the plugin and the log; the others register', async (t) => {
  const { m, log, handler, talk, sock, pass } = await setup(t);
  const dead = await sock('dead.sock');
  handler.validateError = 'manager version, v1beta1, is not among plugin supported versions [v1alpha1]';
  const old = await sock('old.sock', { supportedVersions: ['v1alpha1'] });
  await m.start();
  await m.settled();
  assert.ok(log.records.some((r) => r.err === `RegisterPlugin error -- dial failed at socket ${dead.path}, err: failed to dial socket ${dead.path}, err: context deadline exceeded`));
  assert.ok(talk.includes('notify false RegisterPlugin error -- plugin validation failed with err: manager version, v1beta1, is not among plugin supported versions [v1alpha1]'));
  // As for a missing handler, the kubelet's log line is the "failed to send" wrapping (notifyPlugin always errs here).
  assert.ok(log.records.some((r) => r.err === `RegisterPlugin error -- failed to send error at socket ${old.path}, err: RegisterPlugin error -- plugin validation failed with err: manager version, v1beta1, is not among plugin supported versions [v1alpha1]`));
  assert.ok(!handler.calls.some((c) => c.startsWith('register')), 'no RegisterPlugin after a failed validation');
  assert.deepEqual(m.registeredPlugins(), []);
  handler.validateError = undefined;
  handler.registerError = 'failed to dial device plugin: context deadline exceeded';
  const good = await sock('good.sock', {});
  await until('good.sock seen', () => m.dsw.pluginExists(good.path));
  await pass();
  assert.ok(talk.includes('notify false RegisterPlugin error -- plugin registration failed with err: failed to dial device plugin: context deadline exceeded'));
  // As in the kubelet, a plugin whose RegisterPlugin failed stays in the actual state (not retried until re-created).
  assert.deepEqual(m.registeredPlugins().map((p) => p.socketPath), [good.path]);
});

test('a removed socket is deregistered; a re-created one (a plugin restart) is deregistered and registered again', async (t) => {
  const { m, handler, dir, sock, pass } = await setup(t);
  const s = await sock('foo.sock', {});
  await m.start();
  await m.settled();
  assert.equal(handler.calls.length, 2);
  await s.close();
  await until('socket gone', () => !m.dsw.pluginExists(s.path));
  await pass();
  assert.deepEqual(handler.calls.slice(2), [`deregister example.com/foo ${s.path}`]);
  assert.deepEqual(m.registeredPlugins(), []);
  await sock('foo.sock', {});
  await until('socket back', () => m.dsw.pluginExists(path.join(dir, 'foo.sock')));
  await pass();
  assert.deepEqual(handler.calls.slice(3), [`validate example.com/foo ${s.path} v1beta1`, `register example.com/foo ${s.path}`]);
  // A restart the reconciler did not see in between: same path, new socket → deregister, then register.
  const gen = m.registeredPlugins()[0]!.generation;
  m.dsw.addOrUpdatePlugin(s.path);
  await pass();
  await pass();
  assert.deepEqual(handler.calls.slice(5), [`deregister example.com/foo ${s.path}`, `validate example.com/foo ${s.path} v1beta1`, `register example.com/foo ${s.path}`]);
  assert.ok(m.registeredPlugins()[0]!.generation > gen);
});

test('refusals reach onRefused (the event bus) with the kubelet words: dial, GetInfo, no handler, validation; not a RegisterPlugin failure', async (t) => {
  const { m, handler, refusals, sock } = await setup(t);
  const dead = await sock('dead.sock');
  const hung = await sock('hung.sock', Object.assign(new Error('deadline'), { code: 4 }));
  const csi = await sock('csi.sock', { type: CSI_PLUGIN, name: 'csi.example.com' });
  handler.validateError = 'manager version, v1beta1, is not among plugin supported versions [v1alpha1]';
  const old = await sock('old.sock', { name: 'example.com/old', supportedVersions: ['v1alpha1'] });
  await m.start();
  await m.settled();
  const byPath = (p: string) => refusals.filter((r) => r.socketPath === p);
  assert.deepEqual(byPath(dead.path), [{ socketPath: dead.path, message: `RegisterPlugin error -- dial failed at socket ${dead.path}, err: failed to dial socket ${dead.path}, err: context deadline exceeded` }]);
  assert.deepEqual(byPath(hung.path), [{ socketPath: hung.path, message: `RegisterPlugin error -- failed to get plugin info using RPC GetInfo at socket ${hung.path}, err: rpc error: code = DeadlineExceeded desc = context deadline exceeded` }]);
  assert.deepEqual(byPath(csi.path), [{ socketPath: csi.path, type: CSI_PLUGIN, name: 'csi.example.com', message: `RegisterPlugin error -- no handler registered for plugin type: CSIPlugin at socket ${csi.path}` }]);
  assert.deepEqual(byPath(old.path), [{ socketPath: old.path, type: DEVICE_PLUGIN, name: 'example.com/old', message: 'RegisterPlugin error -- plugin validation failed with err: manager version, v1beta1, is not among plugin supported versions [v1alpha1]' }]);
  assert.equal(refusals.length, 4);
  handler.validateError = undefined;
  handler.registerError = 'failed to dial device plugin: context deadline exceeded';
  const good = await sock('good.sock', {});
  await until('good.sock seen', () => m.dsw.pluginExists(good.path));
  m.reconcile();
  await m.settled();
  assert.deepEqual(byPath(good.path), [], "a failing RegisterPlugin is the handler's to report");
});
