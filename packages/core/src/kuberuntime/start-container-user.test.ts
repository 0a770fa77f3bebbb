// The image user the kubelet reads before it builds a container's config (kuberuntime_image.go getImageUser at v1.28:
// ImageStatus uid, else the user name, else root) and what follows from it: runAsUser / runAsUsername in the CRI
// config, runAsNonRoot refusals as CreateContainerConfigError with a `Failed` event "Error: <message>".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import type { CreateContainerRequest, ImageStatusResponse__Output } from '../cri/types.ts';
import { startContainer, type StartDeps } from './start-container.ts';

function deps(status: () => Promise<ImageStatusResponse__Output>) {
  const created: CreateContainerRequest[] = [];
  const events: string[] = [];
  const d: StartDeps = {
    cri: {
      createContainer: async (req) => (created.push(req), { containerId: 'c1' }),
      startContainer: async () => ({}),
      imageStatus: status,
    },
    images: { ensureImageExists: async () => ({ ok: true, imageRef: 'sha256:img' }) },
    events: (_pod, type, reason, message) => void events.push(`${type} ${reason} ${message}`),
    timed: (_op, fn) => fn(),
    nodeName: 'n',
    hostIPs: ['10.0.0.1'],
  };
  return { d, created, events };
}
const image = (p: Record<string, unknown>) => async () => ({ image: { id: 'sha256:img', repoTags: [], repoDigests: [], size: 0, uid: null, username: '', spec: null, pinned: false, ...p }, info: {} }) as ImageStatusResponse__Output;
const pod = (nonRoot?: boolean): V1Pod => ({
  metadata: { name: 'p', namespace: 'ns', uid: 'u' },
  spec: { containers: [{ name: 'c', image: 'app:1' }], ...(nonRoot ? { securityContext: { runAsNonRoot: true } } : {}) },
});
const start = (d: StartDeps, p: V1Pod) => startContainer(d, p, p.spec!.containers[0]!, false, 'sb', {}, { id: 'u', name: 'p', namespace: 'ns', ips: [], containerStatuses: [], sandboxStatuses: [] } as never, []);

test('the image uid becomes runAsUser; a name becomes runAsUsername; neither = root (runAsUser 0)', async () => {
  for (const [img, want] of [[{ uid: { value: 1000 } }, { runAsUser: { value: 1000 } }], [{ username: 'app' }, { runAsUsername: 'app' }], [{}, { runAsUser: { value: 0 } }]] as const) {
    const { d, created } = deps(image(img));
    assert.deepEqual(await start(d, pod()), { ok: true, containerId: 'c1' });
    const sc = created[0]!.config!.linux!.securityContext!;
    assert.deepEqual({ runAsUser: sc.runAsUser, runAsUsername: sc.runAsUsername }, { runAsUser: undefined, runAsUsername: undefined, ...want });
  }
});

test('runAsNonRoot with a named image user: CreateContainerConfigError and the Failed event, nothing created', async () => {
  const { d, created, events } = deps(image({ username: 'app' }));
  const message = 'container has runAsNonRoot and image has non-numeric user (app), cannot verify user is non-root (pod: "p_ns(u)", container: c)';
  assert.deepEqual(await start(d, pod(true)), { ok: false, reason: 'CreateContainerConfigError', message });
  assert.deepEqual(events, [`Warning Failed Error: ${message}`]);
  assert.equal(created.length, 0);
});

test('an ImageStatus error is the container config error', async () => {
  const { d, events } = deps(async () => Promise.reject(new Error('rpc error: code = Unavailable desc = connection refused')));
  assert.deepEqual(await start(d, pod()), { ok: false, reason: 'CreateContainerConfigError', message: 'rpc error: code = Unavailable desc = connection refused' });
  assert.equal(events.length, 1);
});

test('the ImageStatus EnsureImageExists read gives the image user: ImageStatus is not read a second time', async () => {
  let reads = 0;
  const { d, created } = deps(async () => (reads++, image({ uid: { value: 7 } })()));
  const found = (await image({ uid: { value: 1000 } })()).image!;
  d.images = { ensureImageExists: async () => ({ ok: true, imageRef: 'sha256:img', image: found }) };
  assert.deepEqual(await start(d, pod()), { ok: true, containerId: 'c1' });
  assert.equal(reads, 0);
  assert.deepEqual(created[0]!.config!.linux!.securityContext!.runAsUser, { value: 1000 });
});
