import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import type { ContainerConfig } from '../cri/types.ts';
import { KubeImageManager } from '../images/image-manager.ts';
import { KubeRuntimeManager } from './runtime-manager.ts';
import { container, makePod } from './testing/builders.ts';

// SyncPod asks PodSandboxStatus after RunPodSandbox for the pod's IPs (kuberuntime_manager.go SyncPod, step 4);
// only the container's config needs them, so what the start makes on the host goes on while it is asked.
test('while PodSandboxStatus is asked, the container log dir is made (the termination-log file already was, with the sandbox); the config still gets the IP', async () => {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false, images: ['busybox'] });
  const images = new KubeImageManager({ cri, clock, logger: nullLogger, events: () => undefined });
  const made: string[] = [];
  let answer!: () => void;
  const asked = new Promise<void>((r) => (answer = r));
  const status = cri.podSandboxStatus.bind(cri);
  cri.podSandboxStatus = async (req, o) => {
    made.push('PodSandboxStatus asked');
    await asked;
    return status(req, o);
  };
  const fs = { mkdirp: async (p: string) => void made.push(`mkdir ${p}`) };
  const messages = {
    createMessageFile: async (dir: string) => void made.push(`termination-log in ${dir}`),
    readAtMost: async () => undefined,
    readLogTail: async () => '',
  };
  const rt = new KubeRuntimeManager(
    { cri, clock, logger: nullLogger, images, events: () => undefined, fs, messages },
    { podLogsDir: '/var/log/pods', rootDir: '/var/lib/kubelet', nodeName: 'node1', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } },
  );
  const pod = makePod({ name: 'web', containers: [container('app', { image: 'busybox', terminationMessagePath: '/dev/termination-log', env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }] })] });
  const sync = rt.syncPod(pod, await rt.getPodStatus('uid-web', 'web', 'default'));
  for (let i = 0; i < 50 && made.length < 4; i++) await new Promise((r) => setImmediate(r));
  assert.deepEqual(made.sort(), [
    'PodSandboxStatus asked',
    'mkdir /var/log/pods/default_web_uid-web',
    'mkdir /var/log/pods/default_web_uid-web/app',
    'termination-log in /var/lib/kubelet/pods/uid-web/containers/app',
  ]);
  assert.deepEqual(cri.methods().filter((m) => m === 'createContainer'), [], 'CreateContainer waits for the IPs');
  answer();
  const r = await sync;
  assert.equal(r.error, undefined);
  const cc = cri.callsOf<{ config: ContainerConfig }>('createContainer')[0]!.config;
  assert.equal(String(cc.envs?.find((e) => e.key === 'POD_IP')?.value), '10.88.0.1');
  assert.ok(cc.mounts?.some((m) => m.containerPath === '/dev/termination-log'));
});

// The kubelet's evented PLEG caches the PodSandboxStatus a CRI event carries; when the runtime's event about the
// new sandbox came before RunPodSandbox's reply, its IPs are that status's, and the round trip is not made again.
test("a sandbox whose ready status the runtime's event already showed: its IPs are taken from it, no PodSandboxStatus; none shown yet: asked", async () => {
  for (const shown of [['10.88.0.7'], undefined]) {
    const clock = new FakeClock();
    const cri = new FakeRuntime({ clock, pullAnything: false, images: ['busybox'] });
    const images = new KubeImageManager({ cri, clock, logger: nullLogger, events: () => undefined });
    const asked: Array<[string, string]> = [];
    const rt = new KubeRuntimeManager(
      { cri, clock, logger: nullLogger, images, events: () => undefined, shownSandboxIps: (uid, id) => (asked.push([uid, id]), shown) },
      { podLogsDir: '/var/log/pods', rootDir: '/var/lib/kubelet', nodeName: 'node1', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } },
    );
    const pod = makePod({ name: 'web', containers: [container('app', { image: 'busybox', env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }] })] });
    const before = cri.methods().length;
    const r = await rt.syncPod(pod, await rt.getPodStatus('uid-web', 'web', 'default'));
    assert.equal(r.error, undefined);
    const sandboxId = cri.callsOf<unknown>('runPodSandbox').length === 1 ? (await cri.listPodSandbox({})).items[0]!.id : '';
    assert.deepEqual(asked, [['uid-web', sandboxId]]);
    const statusCalls = cri.methods().slice(before).filter((m) => m === 'podSandboxStatus').length;
    assert.equal(statusCalls, shown ? 0 : 1);
    const cc = cri.callsOf<{ config: ContainerConfig }>('createContainer')[0]!.config;
    assert.equal(String(cc.envs?.find((e) => e.key === 'POD_IP')?.value), shown ? '10.88.0.7' : '10.88.0.1');
  }
});
