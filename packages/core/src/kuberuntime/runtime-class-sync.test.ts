// RuntimeClass in the sync (kuberuntime_sandbox.go createPodSandbox / SyncPod at v1.28): the handler looked up
// from runtimeClassName goes to RunPodSandbox; a lookup failure or a runtime that refuses the handler fails
// the sandbox step with CreatePodSandboxError, the message `Failed to create sandbox for pod "<format.Pod>": <err>`
// and a Warning FailedCreatePodSandBox `Failed to create pod sandbox: <err>`; spec.overhead and the pod's own
// requests / limits go to PodSandboxConfig.linux (kuberuntime_sandbox_linux.go applySandboxResources).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { CriError, type PodSandboxConfig } from '../cri/types.ts';
import { KubeImageManager } from '../images/image-manager.ts';
import { StaticRuntimeClasses } from '../runtimeclass/runtime-class-manager.ts';
import { KubeRuntimeManager } from './runtime-manager.ts';
import { container, makePod } from './testing/builders.ts';
import { ReasonCache } from '../kubelet/reason-cache.ts';
import { generateApiPodStatus } from '../kubelet/pod-status.ts';

function setup() {
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false, images: [] });
  const events: string[] = [];
  const images = new KubeImageManager({ cri, clock, logger: nullLogger, events: () => undefined });
  const rt = new KubeRuntimeManager(
    { cri, clock, logger: nullLogger, images, events: (_p, type, reason, msg) => events.push(`${type} ${reason}: ${msg}`), runtimeClasses: new StaticRuntimeClasses({ sandboxed: 'userns', plain: '' }) },
    { podLogsDir: '/var/log/pods', nodeName: 'node1', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } },
  );
  const sync = async (pod: V1Pod) => rt.syncPod(pod, await rt.getPodStatus(pod.metadata!.uid!, pod.metadata!.name!, 'default'));
  return { cri, events, rt, sync };
}

const withClass = (name: string, runtimeClassName?: string): V1Pod => {
  const p = makePod({ name });
  if (runtimeClassName !== undefined) p.spec!.runtimeClassName = runtimeClassName;
  return p;
};

test('runtimeClassName → the RuntimeClass handler in RunPodSandbox; no class and "" → the default handler ""', async () => {
  const { cri, sync } = setup();
  for (const [name, cls] of [['a', 'sandboxed'], ['b', undefined], ['c', ''], ['d', 'plain']] as const) assert.equal((await sync(withClass(name, cls))).error, undefined, name);
  assert.deepEqual(cri.callsOf<{ runtimeHandler: string; config: PodSandboxConfig }>('runPodSandbox').map((r) => [r.config.metadata?.name, r.runtimeHandler]), [['a', 'userns'], ['b', ''], ['c', ''], ['d', '']]);
  assert.deepEqual([...cri.sandboxes.values()].map((s) => s.runtimeHandler).sort(), ['', '', '', 'userns']);
});

test('an unknown class: CreatePodSandboxError with the kubelet message, FailedCreatePodSandBox, no RunPodSandbox; the status says why', async () => {
  const { cri, events, rt, sync } = setup();
  const pod = withClass('web', 'missing');
  const r = await sync(pod);
  assert.equal(r.error?.reason, 'CreatePodSandboxError');
  assert.equal(r.error?.message, 'Failed to create sandbox for pod "web_default(uid-web)": runtimeclass.node.k8s.io "missing" not found');
  assert.deepEqual(events, ['Warning FailedCreatePodSandBox: Failed to create pod sandbox: runtimeclass.node.k8s.io "missing" not found']);
  assert.deepEqual(cri.callsOf('runPodSandbox'), []);
  // Pending, the container ContainerCreating (as the kubelet) with the failure as its message.
  const reasons = new ReasonCache();
  reasons.update('uid-web', r);
  const st = generateApiPodStatus(pod, await rt.getPodStatus('uid-web', 'web', 'default'), reasons, false, undefined, []);
  assert.equal(st.phase, 'Pending');
  assert.deepEqual(st.containerStatuses?.[0]?.state, { waiting: { reason: 'ContainerCreating', message: r.error?.message } });
  // Another pod is undisturbed; once a sandbox is made the message goes.
  assert.equal((await sync(withClass('other'))).error, undefined);
  reasons.update('uid-web', { steps: [{ action: 'CreatePodSandbox', target: 'uid-web' }] });
  assert.equal(reasons.sandboxFailure('uid-web'), undefined);
});

test('a handler the runtime refuses: its error in the message and the event', async () => {
  const { cri, events, sync } = setup();
  cri.failNext('runPodSandbox', new CriError('UNKNOWN', 'failed to get sandbox runtime: no runtime for "userns" is configured'));
  const r = await sync(withClass('web', 'sandboxed'));
  assert.equal(r.error?.reason, 'CreatePodSandboxError');
  assert.match(r.error?.message ?? '', /^Failed to create sandbox for pod "web_default\(uid-web\)": .*no runtime for "userns" is configured/);
  assert.match(events[0] ?? '', /^Warning FailedCreatePodSandBox: Failed to create pod sandbox: .*no runtime for "userns" is configured/);
});

test('spec.overhead and the pod resources in PodSandboxConfig.linux (the Pod Overhead docs example)', async () => {
  const { cri, sync } = setup();
  // docs/concepts/scheduling-eviction/pod-overhead: RuntimeClass kata-fc podFixed memory 120Mi, cpu 250m; two
  // containers with limits 500m / 100Mi and 1500m / 100Mi.
  const pod = makePod({ name: 'test-pod', containers: [container('busybox-ctr', { resources: { limits: { cpu: '500m', memory: '100Mi' } } }), container('nginx-ctr', { resources: { limits: { cpu: '1500m', memory: '100Mi' } } })] });
  pod.spec!.overhead = { memory: '120Mi', cpu: '250m' };
  await sync(pod);
  const linux = cri.callsOf<{ config: PodSandboxConfig }>('runPodSandbox')[0]!.config.linux;
  assert.deepEqual(linux?.overhead, { cpuShares: 256, cpuPeriod: 100000, cpuQuota: 25000, memoryLimitInBytes: 120 * 2 ** 20 });
  assert.deepEqual(linux?.resources, { cpuShares: 2048, cpuPeriod: 100000, cpuQuota: 200000, memoryLimitInBytes: 200 * 2 ** 20 });
  await sync(makePod({ name: 'plain' }));
  const plain = cri.callsOf<{ config: PodSandboxConfig }>('runPodSandbox')[1]!.config.linux;
  assert.deepEqual(plain?.overhead, {}, 'no overhead: empty resources (convertOverheadToLinuxResources)');
  assert.deepEqual(plain?.resources, { cpuShares: 2, cpuPeriod: 100000, cpuQuota: 0 }, 'BestEffort: minimum shares, no quota, no memory limit');
});
