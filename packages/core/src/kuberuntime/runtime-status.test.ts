import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container__Output, PodSandbox__Output } from '../cri/proto-types.ts';
import type { CriClient } from '../cri/types.ts';
import { heardExitMessage, listRuntimePods, readPodStatus } from './runtime-status.ts';
import type { TerminationMessageFs } from './termination-message.ts';

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

test("readPodStatus keeps where a running container's termination message will be (the mount at its annotated path), and an exit heard before the runtime shows it is given the message from there", async () => {
  // The annotations the kubelet puts on the container (kuberuntime/labels.go) and the mount makeMounts adds.
  const annotations = { 'io.kubernetes.container.hash': '7', 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log', 'io.kubernetes.container.terminationMessagePolicy': 'File' };
  const hostPath = '/var/lib/kubelet/pods/u1/containers/app/f1';
  const status = {
    id: 'c1', metadata: { name: 'app', attempt: 0 }, state: 'CONTAINER_RUNNING', createdAt: 3, startedAt: 4, finishedAt: 0, exitCode: 0, reason: '', message: '',
    image: { image: 'busybox' }, imageRef: 'sha256:1', labels: { ...podLabels('u1'), 'io.kubernetes.container.name': 'app' }, annotations, logPath: '/l/app/0.log',
    mounts: [{ containerPath: '/etc/hosts', hostPath: '/h/etc-hosts' }, { containerPath: '/dev/termination-log', hostPath }],
  };
  const rt = Object.assign(cri({ items: [sandbox('s1', 'u1', 1)], containers: [container('c1', 'u1', 'app', 3)] }), {
    podSandboxStatus: async () => ({ status: { id: 's1', state: 'SANDBOX_READY', createdAt: 1, metadata: { attempt: 0 }, network: { ip: '10.1.0.2', additionalIps: [] } } }),
    containerStatus: async () => ({ status }),
  }) as unknown as Parameters<typeof readPodStatus>[0];
  const files: Record<string, string> = { [hostPath]: 'DONE' };
  const fs: TerminationMessageFs = { createMessageFile: async () => {}, readAtMost: async (p) => (p in files ? Buffer.from(files[p]!) : undefined), readLogTail: async () => 'LOG' };
  const read = await readPodStatus(rt, 'containerd', 'u1', 'p-u1', 'default', fs);
  const running = read.containerStatuses[0]!;
  assert.deepEqual(running.messageSource, { hostPath, fallbackToLogsOnError: false });
  const heard = { ...running, state: 'exited' as const, exitCode: 0, reason: 'Completed', finishedAt: 9, exitHeardAt: 9 };
  assert.equal(await heardExitMessage(heard, fs), 'DONE');
  // FallbackToLogsOnError with a nonzero exit and an empty file: the log is to stand in, only the runtime's read tells.
  files[hostPath] = '';
  const fallback = { ...heard, exitCode: 2, reason: 'Error', messageSource: { hostPath, fallbackToLogsOnError: true } };
  assert.equal(await heardExitMessage(fallback, fs), undefined);
  assert.equal(await heardExitMessage({ ...heard, messageSource: undefined }, fs), undefined, 'no place kept');
  assert.equal(await heardExitMessage(heard, undefined), '', 'no messages read at all: nothing to wait for');
});
