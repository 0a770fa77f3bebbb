/**
 * Device plugins with a real agent (embedded runtime, and a private containerd) joined to the API server TEST DOUBLE, and a REAL gRPC
 * device plugin (the test plugin, speaking deviceplugin v1beta1 over a unix socket):
 * - it registers on <root-dir>/device-plugins/kubelet.sock; the Node reports example.com/foo: 2;
 * - a pod asking for one device runs with the plugin's env var, mount and device (the container reads them),
 *   and so does a static pod written after the registration;
 * - a pod asking for more than there are is Failed / UnexpectedAdmissionError with the kubelet's message;
 * - a health change lowers allocatable; after an agent restart the checkpointed allocation is kept (the running
 *   pod's device is not handed to another pod) and the plugin is not asked to Allocate it again;
 * - the pod resources API (<root-dir>/pod-resources/kubelet.sock, a client built from the proto file) lists the
 *   running pod's device.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { ApiServerDouble } from '@nodelet/apiserver-double';
import { TestDevicePlugin, podResourcesProtoClient } from '@nodelet/core/testing';
import { HOST_IMAGE, boundPod, startApiNode, testCgroupRoot } from './testing/api-node.ts';
import { removeCgroupTree } from './testing/cgroups.ts';
import type { NodeAgent } from './testing/cluster-node.ts';
import { eventually } from './testing/processes.ts';
import { setUpRuntime, tempPrivateContainerd, type RuntimeSetup } from './testing/private-containerd.ts';

const RES = 'example.com/foo';

function manifestsDir(root: string): string {
  const dir = join(root, 'manifests');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A static pod (restartPolicy Never, one container "c") asking for one device. */
function staticDevicePod(name: string, image: string, script: string): string {
  return [
    'apiVersion: v1', 'kind: Pod', `metadata: { name: ${name}, namespace: default }`, 'spec:', '  restartPolicy: Never', '  containers:',
    '    - name: c', `      image: ${image}`, '      imagePullPolicy: Never', `      command: ["sh", "-c", ${JSON.stringify(script)}]`,
    `      resources: { limits: { ${RES}: "1" } }`, '',
  ].join('\n');
}

function suite(runtime: string, NODE: string, image: string, setup: RuntimeSetup): void {
  let api: ApiServerDouble;
  let agent: NodeAgent;
  let plugin: TestDevicePlugin;
  let down: (() => Promise<void>) | undefined;
  let skip: string | false = false;

  const getPod = (name: string) => api.store.get('pods', 'default', name) as V1Pod | undefined;
  const node = () => api.store.get('nodes', '', NODE) as V1Node | undefined;
  const devicePod = (name: string, n: number, script: string) => {
    const p = boundPod(name, NODE, { image, pullPolicy: 'Never', script, resources: { limits: { [RES]: String(n) }, requests: { [RES]: String(n) } } });
    p.spec.restartPolicy = 'Never';
    return p;
  };
  const phase = (name: string, want: string) => eventually(async () => (getPod(name)?.status?.phase === want ? getPod(name) : undefined), 90_000, `${name} ${want}`);
  const allocateCalls = () => plugin.calls.filter((c) => c.rpc === 'Allocate');
  const checkpointEntries = () =>
    (JSON.parse(readFileSync(join(agent.root, 'device-plugins', 'kubelet_internal_checkpoint'), 'utf8')).Data.PodDeviceEntries ?? []) as Array<{ PodUID: string; DeviceIDs: Record<string, string[]> }>;
  const skipped = (t: TestContext) => (skip ? (t.skip(skip), true) : false);

  async function registerPlugin(): Promise<void> {
    const dir = join(agent.root, 'device-plugins');
    await eventually(async () => (existsSync(join(dir, 'kubelet.sock')) ? true : undefined), 30_000, 'kubelet.sock');
    await plugin.serve();
    await plugin.register();
  }

  describe(`device plugins through a real agent on ${runtime}`, { timeout: 400_000 }, () => {
    before(async () => {
      const r = await setUpRuntime(setup);
      if ('skip' in r) {
        skip = r.skip;
        return;
      }
      down = r.down;
      ({ api, agent } = await startApiNode(NODE, { staticPod: false, args: (root) => ['--pod-manifest-path', manifestsDir(root)], ...(r.endpoint ? { endpoint: r.endpoint } : {}) }));
      const hostDir = join(agent.root, 'fake-devices');
      mkdirSync(hostDir, { recursive: true });
      for (const id of ['dev-a', 'dev-b']) writeFileSync(join(hostDir, id), `I am ${id}\n`);
      plugin = new TestDevicePlugin({ dir: join(agent.root, 'device-plugins'), hostDir, resource: RES, deviceIds: ['dev-a', 'dev-b'] });
      await registerPlugin();
    });

    after(async () => {
      await plugin?.stop();
      await agent?.cleanup();
      await api?.stop();
      await down?.();
      if (down && process.getuid?.() === 0) removeCgroupTree(testCgroupRoot(NODE));
    });

    it('the Node reports the plugin devices in capacity and allocatable', async (t) => {
      if (skipped(t)) return;
      await eventually(async () => (node()?.status?.capacity?.[RES] === '2' ? true : undefined), 30_000, 'capacity example.com/foo: 2');
      assert.equal(node()?.status?.allocatable?.[RES], '2');
    });

    it('a pod with example.com/foo: 1 runs with the allocation env, mount and device', async (t) => {
      if (skipped(t)) return;
      const script = 'echo "env=$TEST_DEVICES mount=$(cat /devices/$TEST_DEVICES) dev=$(test -c /dev/testdev0 && echo char)" > /dev/termination-log';
      api.store.create(devicePod('sees-dev', 1, script));
      const done = await phase('sees-dev', 'Succeeded');
      const [call] = allocateCalls();
      assert.ok(call, 'Allocate was called');
      const id = call.ids[0]!;
      assert.equal(done.status?.containerStatuses?.[0]?.state?.terminated?.message, `env=${id} mount=I am ${id} dev=char\n`);
    });

    it('a static pod with example.com/foo: 1 gets the plugin env too (its mirror pod shows it)', async (t) => {
      if (skipped(t)) return;
      writeFileSync(join(manifestsDir(agent.root), 'devstatic.yaml'), staticDevicePod('devstatic', image, 'echo "env=$TEST_DEVICES" > /dev/termination-log'));
      const mirror = `devstatic-${NODE}`;
      const done = await phase(mirror, 'Succeeded');
      assert.match(done.status?.containerStatuses?.[0]?.state?.terminated?.message ?? '', /^env=dev-[ab]\n$/);
    });

    it('a pod asking for more devices than are free: Failed / UnexpectedAdmissionError naming the resource', async (t) => {
      if (skipped(t)) return;
      api.store.create(devicePod('holds-dev', 1, 'sleep 3600'));
      const holder = await phase('holds-dev', 'Running');
      const entry = checkpointEntries().find((e) => e.PodUID === holder.metadata?.uid);
      assert.ok(entry, 'the allocation is checkpointed');
      api.store.create(devicePod('too-many', 2, 'true'));
      const p = await phase('too-many', 'Failed');
      assert.equal(p.status?.reason, 'UnexpectedAdmissionError');
      assert.equal(p.status?.message, 'Pod was rejected: Allocate failed due to requested number of devices unavailable for example.com/foo. Requested: 2, Available: 1, which is unexpected');
    });

    it('the pod resources API (a client built from the proto file) lists the running pod with its device', async (t) => {
      if (skipped(t)) return;
      const held = Object.values(checkpointEntries().find((e) => e.PodUID === getPod('holds-dev')?.metadata?.uid)!.DeviceIDs).flat();
      const c = podResourcesProtoClient(join(agent.root, 'pod-resources', 'kubelet.sock'));
      t.after(() => c.close());
      const { err, res } = await c.call('List');
      assert.equal(err, null);
      const pod = res.pod_resources.find((p: { name: string }) => p.name === 'holds-dev');
      assert.deepEqual(pod?.containers?.[0]?.devices, held.map((id) => ({ resource_name: RES, device_ids: [id], topology: null })));
      const alloc = await c.call('GetAllocatableResources');
      assert.deepEqual(alloc.res.devices.map((d: { device_ids: string[] }) => d.device_ids[0]), ['dev-a', 'dev-b']);
    });

    it('a device turning unhealthy lowers allocatable, capacity stays', async (t) => {
      if (skipped(t)) return;
      plugin.setHealth('dev-b', false);
      await eventually(async () => (node()?.status?.allocatable?.[RES] === '1' ? true : undefined), 30_000, 'allocatable 1');
      assert.equal(node()?.status?.capacity?.[RES], '2');
      plugin.setHealth('dev-b', true);
      await eventually(async () => (node()?.status?.allocatable?.[RES] === '2' ? true : undefined), 30_000, 'allocatable 2');
    });

    it('agent restart: the running pod keeps its device (no second Allocate), the next pod gets the other one', async (t) => {
      if (skipped(t)) return;
      const holder = getPod('holds-dev')!;
      const held = Object.values(checkpointEntries().find((e) => e.PodUID === holder.metadata?.uid)!.DeviceIDs).flat();
      const before = allocateCalls().length;
      await agent.kill('SIGKILL');
      await plugin.stop();
      await agent.start();
      await registerPlugin();
      api.store.create(devicePod('after-restart', 1, 'sleep 3600'));
      await phase('after-restart', 'Running');
      assert.equal(getPod('holds-dev')?.status?.phase, 'Running', JSON.stringify(getPod('holds-dev')?.status));
      const calls = allocateCalls().slice(before);
      assert.equal(calls.length, 1, 'only the new pod was allocated');
      assert.notDeepEqual(calls[0]!.ids, held);
    });
  });
}

suite('the embedded runtime', 'node-dev-emb', HOST_IMAGE, async () => ({ down: async () => {} }));
suite('containerd', 'node-dev-ctd', 'localhost/busybox:latest', () => tempPrivateContainerd('nodelet-devplugin-ctd-'));
