import { test } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import assert from 'node:assert/strict';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import type { ContainerConfig } from '../cri/types.ts';
import { KubeImageManager } from '../images/image-manager.ts';
import { KubeRuntimeManager } from './runtime-manager.ts';
import { container, makePod } from './testing/builders.ts';

/** A runtime manager over a fake runtime holding `images`; `made` hears each termination-log file made, `removed` lists those removed. */
function setup(images: string[], made: (dir: string, file: string) => void) {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false, images });
  const removed: string[] = [];
  const messages = {
    createMessageFile: async (dir: string, file: string) => made(dir, file),
    readAtMost: async () => undefined,
    readLogTail: async () => '',
    removeMessageFile: async (path: string) => void removed.push(path),
  };
  const rt = new KubeRuntimeManager(
    { cri, clock, logger: nullLogger, images: new KubeImageManager({ cri, clock, logger: nullLogger, events: () => undefined }), events: () => undefined, messages },
    { podLogsDir: '/var/log/pods', rootDir: '/var/lib/kubelet', nodeName: 'node1', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } },
  );
  const sync = async (pod: V1Pod) => rt.syncPod(pod, await rt.getPodStatus('uid-web', 'web', 'default'));
  return { cri, removed, sync };
}

// The kubelet makes a container's termination-log file in startContainer, after RunPodSandbox. A first start in a
// new sandbox has it made while RunPodSandbox runs (off the start's path); CreateContainer mounts that file, and no
// second one is made. Containers without terminationMessagePath get none.
test('a new sandbox: its containers\' termination-log files are made while RunPodSandbox runs, each once, and mounted', async () => {
  const made: string[] = [];
  const { cri, sync: syncOf } = setup(['busybox'], (dir, file) => void made.push(`termination-log ${dir}/${file}`));
  let reply!: () => void;
  const replied = new Promise<void>((r) => (reply = r));
  const run = cri.runPodSandbox.bind(cri);
  cri.runPodSandbox = async (req, o) => {
    made.push('RunPodSandbox asked');
    await replied;
    return run(req, o);
  };
  const pod = makePod({
    name: 'web',
    containers: [container('app', { image: 'busybox', terminationMessagePath: '/dev/termination-log' }), container('side', { image: 'busybox', terminationMessagePath: '' })],
  });
  const sync = syncOf(pod);
  for (let i = 0; i < 50 && made.length < 2; i++) await new Promise((r) => setImmediate(r));
  const file = made.find((m) => m.startsWith('termination-log')) ?? '';
  assert.ok(made.includes('RunPodSandbox asked'));
  assert.match(file, /^termination-log \/var\/lib\/kubelet\/pods\/uid-web\/containers\/app\/[0-9a-f-]{36}$/, 'made before RunPodSandbox replied');
  reply();
  const r = await sync;
  assert.equal(r.error, undefined);
  assert.equal(made.length, 2, 'one file, for the container with a termination-log path');
  assert.equal(cri.methods().filter((m) => m === 'createContainer').length, 2);
  const configs = cri.callsOf<{ config: ContainerConfig }>('createContainer').map((c) => c.config);
  const mount = configs[0]?.mounts?.find((m) => m.containerPath === '/dev/termination-log');
  assert.equal(`termination-log ${mount?.hostPath}`, file, 'the file made ahead is the one mounted');
  assert.equal(configs[1]?.mounts?.some((m) => m.containerPath === ''), false);
});

test('a container started again (it has a status): its termination-log file is made at its start, not ahead', async () => {
  const made: string[] = [];
  const { cri, sync } = setup(['busybox'], (dir) => void made.push(dir));
  const pod = makePod({ name: 'web', containers: [container('app', { image: 'busybox', terminationMessagePath: '/dev/termination-log' })] });
  assert.equal((await sync(pod)).error, undefined);
  // The sandbox goes away: the next sync makes a new one, and the container (known from its status) starts again.
  const sandbox = (await cri.listPodSandbox({})).items[0]!.id;
  await cri.stopPodSandbox({ podSandboxId: sandbox });
  made.length = 0;
  let during = -1;
  const run = cri.runPodSandbox.bind(cri);
  cri.runPodSandbox = async (req, o) => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    during = made.length;
    return run(req, o);
  };
  assert.equal((await sync(pod)).error, undefined);
  assert.equal(during, 0, 'nothing made while RunPodSandbox ran');
  assert.deepEqual(made, ['/var/lib/kubelet/pods/uid-web/containers/app']);
});

// The kubelet makes the file only on the way to CreateContainer: a file made ahead for a start that never got there is
// removed, so a pod retrying a failing sandbox or pull does not pile up empty files in its directory.
test('a termination-log file made ahead is removed when the sandbox fails or the image cannot be had; kept when the container is created', async () => {
  for (const fails of ['sandbox', 'pull', undefined] as const) {
    const made: string[] = [];
    const { cri, removed, sync } = setup(fails === 'pull' ? [] : ['busybox'], (dir, file) => void made.push(`${dir}/${file}`));
    if (fails === 'sandbox') cri.runPodSandbox = async () => Promise.reject(new Error('failed to set up pod network'));
    const pod = makePod({ name: 'web', containers: [container('app', { image: 'busybox', imagePullPolicy: 'Never', terminationMessagePath: '/dev/termination-log' })] });
    const r = await sync(pod);
    for (let i = 0; i < 20; i++) await new Promise((res) => setImmediate(res));
    assert.equal(made.length, 1, String(fails));
    if (fails) {
      assert.notEqual(r.error, undefined, `${fails} failed`);
      assert.deepEqual(removed, made, `${fails}: removed again`);
    } else {
      assert.equal(r.error, undefined);
      assert.deepEqual(removed, [], 'created: kept');
    }
  }
});

// The work overlapped with RunPodSandbox is asked after it: the runtime serves the sandbox first (an ImageStatus
// asked before it was served before it, ≈ 1 ms on the embedded runtime's start path).
test('a new sandbox: RunPodSandbox is asked before the image status and termination-log file made ahead', async () => {
  const order: string[] = [];
  const { cri, sync } = setup(['busybox'], () => void order.push('termination-log'));
  for (const m of ['runPodSandbox', 'imageStatus'] as const) {
    const real = (cri[m] as (...a: unknown[]) => Promise<unknown>).bind(cri);
    (cri as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
      order.push(m);
      return real(...a);
    };
  }
  const pod = makePod({ name: 'web', containers: [container('app', { image: 'busybox', terminationMessagePath: '/dev/termination-log' })] });
  assert.equal((await sync(pod)).error, undefined);
  assert.deepEqual(order.slice(0, 3), ['runPodSandbox', 'imageStatus', 'termination-log']);
});
