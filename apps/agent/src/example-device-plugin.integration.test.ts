/**
 * The example device plugin (examples/device-plugin, a separate process speaking deviceplugin v1beta1) with a real
 * agent on the embedded runtime, joined to the API server TEST DOUBLE (#17 items 7 and 9):
 * - it registers on <root-dir>/device-plugins/kubelet.sock: the Node reports example.com/fake: 2;
 * - a pod asking for one device runs with the device's file mounted and FAKE_DEVICE naming it (its log says so);
 * - the device's health control file (<dir>/fake-<i>.unhealthy) lowers allocatable to 1, capacity stays 2;
 * - the plugin restarted (a new process) registers again;
 * - the agent restarted: the plugin sees kubelet.sock re-created and registers again by itself; the running pod
 *   keeps its device (the checkpoint) and the next pod gets the other one.
 * What device-plugin-apiserver.integration.test.ts already covers with the in-process test plugin is not repeated:
 * the DeviceSpec, static pods, UnexpectedAdmissionError, containerd.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { LOOP, boundPod, startApiNode } from './testing/api-node.ts';
import { call, type NodeAgent } from './testing/cluster-node.ts';
import { eventually, lineReader } from './testing/processes.ts';

const NODE = 'node-fakedev';
const RES = 'example.com/fake';
const PLUGIN = fileURLToPath(new URL('../../../examples/device-plugin/main.ts', import.meta.url));

interface PluginProcess {
  child: ChildProcess;
  lines: string[];
  waitForLine(pred: (l: string) => boolean, what: string): Promise<string>;
}

describe('the example device plugin with a real agent (embedded runtime)', { timeout: 180_000 }, () => {
  let api: ApiServerDouble;
  let agent: NodeAgent;
  let plugin: PluginProcess | undefined;
  const deviceDir = () => join(agent.root, 'fake-devices');
  const node = () => api.store.get('nodes', '', NODE) as V1Node | undefined;
  const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;
  const tls = () => ({ cert: readFileSync(join(agent.root, 'pki', 'console.crt'), 'utf8'), key: readFileSync(join(agent.root, 'pki', 'console.key'), 'utf8') });

  function startPlugin(): PluginProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', PLUGIN, '--devices', '2', '--device-dir', deviceDir(), '--plugin-dir', join(agent.root, 'device-plugins')], { stdio: ['ignore', 'pipe', 'inherit'] });
    return { child, ...lineReader(child) };
  }

  async function stopPlugin(): Promise<void> {
    const c = plugin?.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  }

  /** Waits until the Node reports `capacity` / `allocatable` devices of the resource. */
  const devicesReported = (capacity: string, allocatable: string) =>
    eventually(async () => (node()?.status?.capacity?.[RES] === capacity && node()?.status?.allocatable?.[RES] === allocatable ? true : undefined), 30_000, `${RES} capacity ${capacity}, allocatable ${allocatable}`);

  /** A pod with one device that prints FAKE_DEVICE and its device file, then runs until stopped. */
  async function devicePod(name: string): Promise<{ device: string; log: string }> {
    const p = boundPod(name, NODE, { script: `echo "FAKE_DEVICE=$FAKE_DEVICE"; cat "/dev/fake/$FAKE_DEVICE"; echo END; ${LOOP}`, resources: { limits: { [RES]: '1' }, requests: { [RES]: '1' } } });
    api.store.create(p);
    const log = await eventually(async () => {
      const r = await call(`https://127.0.0.1:${agent.port}/containerLogs/default/${name}/c`, tls());
      return r.status === 200 && r.body.includes('END') ? r.body : undefined;
    }, 60_000, `${name} printed its device`);
    const m = /^FAKE_DEVICE=(fake-[01])\nfake device \1\nEND\n$/.exec(log);
    assert.ok(m, `the device's env var and file in the container: ${JSON.stringify(log)}`);
    return { device: m[1]!, log };
  }

  let held = '';

  before(async () => {
    ({ api, agent } = await startApiNode(NODE, { staticPod: false }));
    plugin = startPlugin();
  });

  after(async () => {
    await stopPlugin();
    await agent?.cleanup();
    await api?.stop();
  });

  it('registers: the Node reports example.com/fake: 2 in capacity and allocatable', async () => {
    await plugin!.waitForLine((l) => l.includes(' registered with '), 'the plugin registered');
    await devicesReported('2', '2');
  });

  it('a pod asking for example.com/fake: 1 runs with the device file mounted and FAKE_DEVICE naming it', async () => {
    held = (await devicePod('uses-fake')).device;
    assert.equal(plugin!.lines.filter((l) => l.includes(' Allocate ')).length, 1);
  });

  it('the free device marked unhealthy (fake-<i>.unhealthy): allocatable 1, capacity 2; marker removed: 2 again', async () => {
    const free = held === 'fake-0' ? 'fake-1' : 'fake-0';
    writeFileSync(join(deviceDir(), `${free}.unhealthy`), '');
    await devicesReported('2', '1');
    rmSync(join(deviceDir(), `${free}.unhealthy`));
    await devicesReported('2', '2');
  });

  it('plugin restart: the resource goes unhealthy while it is away, the new process registers again', async () => {
    await stopPlugin();
    await devicesReported('2', '0');
    plugin = startPlugin();
    await plugin.waitForLine((l) => l.includes(' registered with '), 'the restarted plugin registered');
    await devicesReported('2', '2');
    assert.equal(getPod('uses-fake')?.status?.phase, 'Running');
  });

  it('agent restart: the plugin registers again by itself, the running pod keeps its device, the next pod gets the other', async () => {
    await agent.kill('SIGKILL');
    await agent.start();
    await plugin!.waitForLine((l) => l.includes(' registered again with '), 'the plugin registered again after the agent restart');
    const holder = getPod('uses-fake')!;
    const entries = JSON.parse(readFileSync(join(agent.root, 'device-plugins', 'kubelet_internal_checkpoint'), 'utf8')).Data.PodDeviceEntries as Array<{ PodUID: string; DeviceIDs: Record<string, string[]> }>;
    assert.deepEqual(Object.values(entries.find((e) => e.PodUID === holder.metadata?.uid)?.DeviceIDs ?? {}).flat(), [held]);
    const next = await devicePod('after-restart');
    assert.notEqual(next.device, held);
    assert.equal(getPod('uses-fake')?.status?.phase, 'Running');
    assert.equal(getPod('uses-fake')?.status?.containerStatuses?.[0]?.restartCount, 0);
    assert.equal(plugin!.lines.filter((l) => l.includes(' Allocate ')).length, 1, 'only the new pod was allocated');
  });
});
