// Defense in depth (issue #12): a pod that reaches the runtime manager with a container name or identity that
// is not a safe path element (an API server that did not validate it) fails before the kubelet builds a host
// path from it: CreateContainerConfigError / CreatePodSandboxError with a Warning event, and nothing is made
// on the node outside the pod's log directory. Real directories (nodeRuntimeFs) in a temp dir.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { FakeRuntime } from '../cri/testing/fake-runtime.ts';
import { KubeImageManager } from '../images/image-manager.ts';
import { nodeRuntimeFs } from '../kubelet/node-fs.ts';
import { FakeClock } from '../util/clock.ts';
import { nullLogger } from '../util/logger.ts';
import { KubeRuntimeManager } from './runtime-manager.ts';
import { container, makePod } from './testing/builders.ts';

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

function setup(t: TestContext) {
  const root = mkdtempSync(join(tmpdir(), 'kuberuntime-log-paths-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const clock = new FakeClock();
  const cri = new FakeRuntime({ clock, pullAnything: false });
  const events: { reason: string; message: string; fieldPath?: string }[] = [];
  const sink = (_p: V1Pod, _t: string, reason: string, message: string, fieldPath?: string) => void events.push({ reason, message, ...(fieldPath ? { fieldPath } : {}) });
  const images = new KubeImageManager({ cri, clock, logger: nullLogger, events: sink });
  const rt = new KubeRuntimeManager(
    { cri, clock, logger: nullLogger, images, events: sink, fs: nodeRuntimeFs },
    { podLogsDir: join(root, 'pods'), nodeName: 'node1', crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 } },
  );
  const sync = async (pod: V1Pod) => rt.syncPod(pod, await rt.getPodStatus(pod.metadata!.uid!, pod.metadata!.name!, 'default'));
  /** Every path under the temp dir, relative to it. */
  const tree = (): string[] => (readdirSync(root, { recursive: true }) as string[]).sort();
  return { cri, events, sync, tree };
}

test('a container named "../x" is refused with CreateContainerConfigError; nothing is made outside the pod log dir', async (t) => {
  const { cri, events, sync, tree } = setup(t);
  const r = await sync(makePod({ name: 'web', containers: [container('ok'), container('../x')] }));
  const message = `invalid container log path: spec.containers[1].name: Invalid value: "../x": ${LABEL_MSG}`;
  assert.deepEqual(r.error, { reason: 'CreateContainerConfigError', message });
  assert.deepEqual(events.filter((e) => e.reason === 'Failed'), [{ reason: 'Failed', message: `Error: ${message}`, fieldPath: 'spec.containers{../x}' }]);
  assert.deepEqual(
    cri.callsOf<{ config: { metadata?: { name?: string } } }>('createContainer').map((c) => c.config.metadata?.name),
    ['ok'],
    'only the valid container is created',
  );
  assert.deepEqual(tree(), ['pods', 'pods/default_web_uid-web', 'pods/default_web_uid-web/ok']);
});

test('every container name that is not a DNS label is refused, init containers too, before the runtime is asked', async (t) => {
  const { cri, sync, tree } = setup(t);
  for (const [i, name] of ['..', '.', 'a/b', '/abs', 'UPPER', 'a'.repeat(64), ''].entries()) {
    const pod = makePod({ name: `p${i}`, initContainers: [container(name)] });
    const r = await sync(pod);
    assert.equal(r.error?.reason, 'CreateContainerConfigError', JSON.stringify(name));
    assert.match(r.error?.message ?? '', /^invalid container log path: spec\.initContainers\[0\]\.name: /);
  }
  assert.deepEqual(cri.callsOf('createContainer'), []);
  assert.ok(tree().every((p) => /^pods(\/default_p\d_uid-p\d)?$/.test(p)), tree().join(' '));
});

test('a pod UID that is not a path element fails the sandbox (FailedCreatePodSandBox) before any directory or RunPodSandbox', async (t) => {
  const { cri, events, sync, tree } = setup(t);
  const r = await sync(makePod({ name: 'web', uid: '../../escape' }));
  assert.equal(r.error?.reason, 'CreatePodSandboxError');
  assert.match(r.error?.message ?? '', /^Failed to create log directory for pod "[^"]*": invalid pod log directory: metadata\.uid: Invalid value: "\.\.\/\.\.\/escape": /);
  assert.deepEqual(events.map((e) => e.reason), ['FailedCreatePodSandBox']);
  assert.deepEqual(cri.callsOf('runPodSandbox'), []);
  assert.deepEqual(tree(), []);
});
