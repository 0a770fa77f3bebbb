import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container__Output, PodSandbox__Output } from '../cri/proto-types.ts';
import type { CriClient } from '../cri/types.ts';
import { listRuntimePods } from './runtime-status.ts';

// Labels as the kubelet sets them (pkg/kubelet/types/labels.go, kuberuntime/labels.go).
const podLabels = (uid: string) => ({ 'io.kubernetes.pod.uid': uid, 'io.kubernetes.pod.name': `p-${uid}`, 'io.kubernetes.pod.namespace': 'default' });
const sandbox = (id: string, uid: string, createdAt: number) =>
  ({ id, metadata: { name: `p-${uid}`, uid, namespace: 'default', attempt: 0 }, state: 'SANDBOX_READY', createdAt, labels: podLabels(uid), annotations: {}, runtimeHandler: '' }) as PodSandbox__Output;
const container = (id: string, uid: string, name: string, createdAt: number) =>
  ({
    id, podSandboxId: 's', metadata: { name, attempt: 0 }, image: { image: 'busybox', annotations: {}, userSpecifiedImage: '', runtimeHandler: '', imageRef: '' },
    imageRef: 'sha256:1', state: 'CONTAINER_RUNNING', createdAt, labels: { ...podLabels(uid), 'io.kubernetes.container.name': name },
    annotations: { 'io.kubernetes.container.hash': '7' }, imageId: 'sha256:1',
  }) as Container__Output;

/** A client that answers whatever the test holds, as the CRI client's memo does: the same object while unchanged. */
function cri(lists: { items: PodSandbox__Output[]; containers: Container__Output[] }) {
  let sandboxes = { items: lists.items };
  let containers = { containers: lists.containers };
  const c = {
    listPodSandbox: async () => sandboxes,
    listContainers: async () => containers,
    set(next: { items?: PodSandbox__Output[]; containers?: Container__Output[] }) {
      if (next.items) sandboxes = { items: next.items };
      if (next.containers) containers = { containers: next.containers };
    },
  };
  return c as typeof c & Pick<CriClient, 'podSandboxStatus' | 'containerStatus'>;
}

test('listRuntimePods groups by pod uid, newest first, and converts nothing again while the lists are the same', async () => {
  const rt = cri({ items: [sandbox('s1', 'u1', 1), sandbox('s2', 'u1', 2)], containers: [container('c1', 'u1', 'app', 3), container('c2', 'u1', 'side', 4)] });
  const pods = await listRuntimePods(rt, 'containerd', false);
  assert.deepEqual(pods.map((p) => [p.uid, p.name, p.sandboxes.map((s) => s.id.id), p.containers.map((c) => c.name)]), [['u1', 'p-u1', ['s2', 's1'], ['side', 'app']]]);
  assert.equal(await listRuntimePods(rt, 'containerd', false), pods);
  assert.throws(() => pods[0]!.containers.sort(() => 0), TypeError);
  assert.throws(() => pods.push(pods[0]!), TypeError);
  // another filter, another type or another list is converted afresh
  assert.notEqual(await listRuntimePods(rt, 'containerd', true), pods);
  assert.notEqual(await listRuntimePods(rt, 'other', false), pods);
  rt.set({ containers: [container('c1', 'u1', 'app', 3)] });
  const after = await listRuntimePods(rt, 'containerd', false);
  assert.deepEqual(after[0]!.containers.map((c) => c.name), ['app']);
});
