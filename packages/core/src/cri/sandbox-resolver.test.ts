import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RuntimeContainerEvent } from './runtime-events.ts';
import { createCriSandboxResolver } from './sandbox-resolver.ts';
import { FakeRuntime, HOST_IMAGE } from './testing/fake-runtime.ts';
import { CriError } from './types.ts';

const sandboxConfig = { metadata: { name: 'web', uid: 'u1', namespace: 'default', attempt: 0 } };
const ev = (kind: RuntimeContainerEvent['kind'], containerId: string): RuntimeContainerEvent => ({ kind, containerId, time: 0, source: 'containerd' });

async function setup() {
  const rt = new FakeRuntime();
  const { podSandboxId } = await rt.runPodSandbox({ config: sandboxConfig });
  const { containerId } = await rt.createContainer({
    podSandboxId,
    config: { metadata: { name: 'app', attempt: 0 }, image: { image: HOST_IMAGE }, labels: { 'io.kubernetes.pod.uid': 'u1' } },
    sandboxConfig,
  });
  rt.resetCalls();
  return { rt, podSandboxId, containerId };
}

describe('createCriSandboxResolver', () => {
  it('finds a container sandbox and pod UID once, then from cache; a sandbox resolves to itself with its metadata.uid', async () => {
    const { rt, podSandboxId, containerId } = await setup();
    const resolve = createCriSandboxResolver(rt);
    const mine = { sandboxId: podSandboxId, podUid: 'u1' };
    assert.deepEqual(await resolve(ev('started', containerId)), mine, 'the io.kubernetes.pod.uid label the kubelet sets');
    assert.deepEqual(await resolve(ev('exited', containerId)), mine);
    assert.deepEqual(rt.methods(), ['listContainers']);
    assert.deepEqual(await resolve(ev('started', podSandboxId)), mine);
    assert.deepEqual(rt.methods(), ['listContainers', 'listContainers', 'listPodSandbox']);
  });

  it('forgets on delete and does not look up unknown deleted ids', async () => {
    const { rt, podSandboxId, containerId } = await setup();
    const resolve = createCriSandboxResolver(rt);
    await resolve(ev('started', containerId));
    assert.deepEqual(await resolve(ev('deleted', containerId)), { sandboxId: podSandboxId, podUid: 'u1' });
    assert.equal(await resolve(ev('deleted', 'never-seen')), undefined);
    assert.deepEqual(rt.methods(), ['listContainers']);
    await resolve(ev('started', containerId));
    assert.deepEqual(rt.methods(), ['listContainers', 'listContainers']);
  });

  it('answers undefined and retries later when CRI does not know the id or fails', async () => {
    const { rt, podSandboxId, containerId } = await setup();
    const resolve = createCriSandboxResolver(rt);
    assert.equal(await resolve(ev('created', 'unknown')), undefined);
    rt.failNext('listContainers', new CriError('UNAVAILABLE', 'down'));
    assert.equal(await resolve(ev('started', containerId)), undefined);
    assert.deepEqual(await resolve(ev('started', containerId)), { sandboxId: podSandboxId, podUid: 'u1' });
  });

  it('bounds its cache', async () => {
    const { rt, containerId, podSandboxId } = await setup();
    const resolve = createCriSandboxResolver(rt, { maxEntries: 1 });
    await resolve(ev('started', containerId));
    await resolve(ev('started', podSandboxId));
    rt.resetCalls();
    await resolve(ev('exited', containerId));
    assert.deepEqual(rt.methods(), ['listContainers']);
  });
});
