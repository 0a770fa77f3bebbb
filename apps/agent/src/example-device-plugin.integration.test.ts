/**
 * The example device plugin (examples/device-plugin, a separate process speaking deviceplugin v1beta1) with a real
 * agent on the embedded runtime and on a private containerd, joined to the API server TEST DOUBLE (#17 items 1, 7, 9):
 * - it registers on <root-dir>/device-plugins/kubelet.sock: the Node reports example.com/fake: 2;
 * - a pod asking for one device runs with the device's file mounted and FAKE_DEVICE naming it (its log says so);
 * - a second plugin process started with --plugins-registry registers through <root-dir>/plugins_registry (the
 *   plugin watcher calls its GetInfo, the device manager connects its socket): its resource is reported and a pod
 *   gets its device;
 * - the device's health control file (<dir>/fake-<i>.unhealthy) lowers allocatable to 1, capacity stays 2;
 * - the plugin restarted (a new process) registers again;
 * - the agent restarted: the plugin sees kubelet.sock re-created and registers again by itself; the running pod
 *   keeps its device (the checkpoint) and the next pod gets the other one.
 * What device-plugin-apiserver.integration.test.ts already covers with the in-process test plugin is not repeated:
 * the DeviceSpec, static pods, UnexpectedAdmissionError. On containerd only registration (both ways) and the pods run:
 * health, plugin and agent restarts are the device manager's alone. Root, and containerd for its suite (a failure
 * under CI=true).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { HOST_IMAGE, LOOP, boundPod, startApiNode, testCgroupRoot } from './testing/api-node.ts';
import { removeCgroupTree } from './testing/cgroups.ts';
import { setUpRuntime, tempPrivateContainerd, type RuntimeSetup } from './testing/private-containerd.ts';
import { call, type NodeAgent } from './testing/cluster-node.ts';
import { eventually, lineReader } from './testing/processes.ts';

const RES = 'example.com/fake';
const WATCHED = 'example.com/watched';
const PLUGIN = fileURLToPath(new URL('../../../examples/device-plugin/main.ts', import.meta.url));

interface PluginProcess {
  child: ChildProcess;
  lines: string[];
  waitForLine(pred: (l: string) => boolean, what: string): Promise<string>;
}

/** On containerd only the cases where the runtime matters (a pod with its device); the others are the device manager's alone. */
const RUNTIME_BLIND = 'the runtime plays no part here: the embedded suite covers it (CI time)';

function suite(runtime: string, NODE: string, image: string, setup: RuntimeSetup, o: { all: boolean }): void {
  const blind = o.all ? {} : { skip: RUNTIME_BLIND };
  describe(`the example device plugin with a real agent on ${runtime}`, { timeout: 180_000 }, () => {
    let api: ApiServerDouble;
    let agent: NodeAgent;
    let plugin: PluginProcess | undefined;
    let watched: PluginProcess | undefined;
    let down: (() => Promise<void>) | undefined;
    let skip: string | false = false;
    const skipped = (t: TestContext) => (skip ? (t.skip(skip), true) : false);
    const deviceDir = () => join(agent.root, 'fake-devices');
    const node = () => api.store.get('nodes', '', NODE) as V1Node | undefined;
    const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;
    const tls = () => ({ cert: readFileSync(join(agent.root, 'pki', 'console.crt'), 'utf8'), key: readFileSync(join(agent.root, 'pki', 'console.key'), 'utf8') });

    function startPlugin(args = ['--devices', '2', '--device-dir', deviceDir(), '--plugin-dir', join(agent.root, 'device-plugins')]): PluginProcess {
      const child = spawn(process.execPath, ['--import', 'tsx', PLUGIN, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
      return { child, ...lineReader(child) };
    }

    async function stopPlugin(p = plugin): Promise<void> {
      const c = p?.child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    }

    /** Waits until the Node reports `capacity` / `allocatable` devices of the resource. */
    const devicesReported = (capacity: string, allocatable: string, res = RES) =>
      eventually(async () => (node()?.status?.capacity?.[res] === capacity && node()?.status?.allocatable?.[res] === allocatable ? true : undefined), 30_000, `${res} capacity ${capacity}, allocatable ${allocatable}`);

    /** A pod with one device that prints FAKE_DEVICE and its device file, then runs until stopped. */
    async function devicePod(name: string, res = RES): Promise<{ device: string; log: string }> {
      const p = boundPod(name, NODE, { image, pullPolicy: 'Never', script: `echo "FAKE_DEVICE=$FAKE_DEVICE"; cat "/dev/fake/$FAKE_DEVICE"; echo END; ${LOOP}`, resources: { limits: { [res]: '1' }, requests: { [res]: '1' } } });
      api.store.create(p);
      const log = await eventually(async () => {
        const r = await call(`https://127.0.0.1:${agent.port}/containerLogs/default/${name}/c`, tls());
        return r.status === 200 && r.body.includes('END') ? r.body : undefined;
      }, 60_000, `${name} printed its device`).catch((err: Error) => {
        const devices = agent.lines.filter((l) => /device|Endpoint|plugin/i.test(l)).slice(-15).join('\n');
        throw new Error(`${err.message}; its status: ${JSON.stringify(getPod(name)?.status)}\nthe agent's device log (last lines):\n${devices}`);
      });
      const m = /^FAKE_DEVICE=(fake-[01])\nfake device \1\nEND\n$/.exec(log);
      assert.ok(m, `the device's env var and file in the container: ${JSON.stringify(log)}`);
      return { device: m[1]!, log };
    }

    let held = '';

    before(async () => {
      const r = await setUpRuntime(setup);
      if ('skip' in r) return void (skip = r.skip);
      down = r.down;
      ({ api, agent } = await startApiNode(NODE, { staticPod: false, ...(r.endpoint ? { endpoint: r.endpoint } : {}) }));
      plugin = startPlugin();
    });

    after(async () => {
      await stopPlugin();
      await stopPlugin(watched);
      await agent?.cleanup();
      await api?.stop();
      await down?.();
      if (down && process.getuid?.() === 0) removeCgroupTree(testCgroupRoot(NODE));
    });

    it('registers: the Node reports example.com/fake: 2 in capacity and allocatable', async (t) => {
      if (skipped(t)) return;
      await plugin!.waitForLine((l) => l.includes(' registered with '), 'the plugin registered');
      await devicesReported('2', '2');
    });

    it('a pod asking for example.com/fake: 1 runs with the device file mounted and FAKE_DEVICE naming it', async (t) => {
      if (skipped(t)) return;
      held = (await devicePod('uses-fake')).device;
      assert.equal(plugin!.lines.filter((l) => l.includes(' Allocate ')).length, 1);
    });

    it('a plugin started with --plugins-registry registers through <root-dir>/plugins_registry; a pod gets its device', async (t) => {
      if (skipped(t)) return;
      const args = ['--resource-name', WATCHED, '--devices', '1', '--device-dir', join(agent.root, 'watched-devices'), '--plugins-registry', join(agent.root, 'plugins_registry')];
      watched = startPlugin(args);
      await watched.waitForLine((l) => l.includes(' registered through '), 'the plugin registered through the plugin watcher');
      await devicesReported('1', '1', WATCHED);
      assert.equal((await devicePod('uses-watched', WATCHED)).device, 'fake-0');
    });

    it('the free device marked unhealthy (fake-<i>.unhealthy): allocatable 1, capacity 2; marker removed: 2 again', blind, async (t) => {
      if (skipped(t)) return;
      const free = held === 'fake-0' ? 'fake-1' : 'fake-0';
      writeFileSync(join(deviceDir(), `${free}.unhealthy`), '');
      await devicesReported('2', '1');
      rmSync(join(deviceDir(), `${free}.unhealthy`));
      await devicesReported('2', '2');
    });

    it('plugin restart: the resource goes unhealthy while it is away, the new process registers again', blind, async (t) => {
      if (skipped(t)) return;
      await stopPlugin();
      await devicesReported('2', '0');
      plugin = startPlugin();
      await plugin.waitForLine((l) => l.includes(' registered with '), 'the restarted plugin registered');
      await devicesReported('2', '2');
      assert.equal(getPod('uses-fake')?.status?.phase, 'Running');
    });

    it('agent restart: the plugin registers again by itself, the running pod keeps its device, the next pod gets the other', blind, async (t) => {
      if (skipped(t)) return;
      await agent.kill('SIGKILL');
      const restartedAt = Date.now();
      await agent.start();
      await plugin!.waitForLine((l) => l.includes(' registered again with '), 'the plugin registered again after the agent restart');
      // Until ListAndWatch has delivered the devices again the new agent cannot admit the pod (as the kubelet): wait for
      // a status the restarted agent posted with both devices allocatable.
      await eventually(async () => {
        const n = node();
        const beat = Date.parse(n?.status?.conditions?.find((c) => c.type === 'Ready')?.lastHeartbeatTime as unknown as string);
        return beat >= Math.ceil(restartedAt / 1000) * 1000 && n?.status?.allocatable?.[RES] === '2' ? true : undefined;
      }, 30_000, 'a status of the restarted agent with both devices allocatable');
      // And the restarted device manager itself holding both healthy (its own log: the Node object may lag or lead it).
      await eventually(async () => (agent.lines.some((l) => l.includes('Processed device updates for resource') && l.includes(`"resourceName":"${RES}"`) && l.includes('"healthyCount":2')) ? true : undefined), 30_000, 'the restarted device manager with both devices healthy');
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
}

suite('the embedded runtime', 'node-fakedev', HOST_IMAGE, async () => ({ down: async () => {} }), { all: true });
suite('containerd', 'node-fakedev-ctd', 'localhost/busybox:latest', () => tempPrivateContainerd('nodelet-fakedev-ctd-'), { all: false });
