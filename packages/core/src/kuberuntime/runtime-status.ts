/** Reading the runtime: all pods (ListPodSandbox + ListContainers) and one pod's full status. */
import type { CriClient } from '../cri/types.ts';
import { isNotFound } from '../cri/types.ts';
import { podInfoFromLabels, POD_UID_LABEL } from '../container/labels.ts';
import type { ContainerStatus, PodStatus, RuntimePod, SandboxStatus } from '../container/types.ts';
import { toContainerStatus, toRuntimeContainer, toRuntimeSandbox, toSandboxStatus } from './convert.ts';
import { readTerminationMessage, withTerminationMessage, type TerminationMessageFs } from './termination-message.ts';

type Cri = Pick<CriClient, 'listPodSandbox' | 'listContainers' | 'podSandboxStatus' | 'containerStatus'>;

export async function listRuntimePods(cri: Cri, type: string, all: boolean): Promise<RuntimePod[]> {
  const [sandboxes, containers] = await Promise.all([
    cri.listPodSandbox(all ? {} : { filter: { state: { state: 'SANDBOX_READY' } } }),
    cri.listContainers(all ? {} : { filter: { state: { state: 'CONTAINER_RUNNING' } } }),
  ]);
  const pods = new Map<string, RuntimePod>();
  const podFor = (labels: Record<string, string>): RuntimePod | undefined => {
    const info = podInfoFromLabels(labels);
    if (!info.uid) return undefined;
    let p = pods.get(info.uid);
    if (!p) {
      p = { ...info, containers: [], sandboxes: [] };
      pods.set(info.uid, p);
    }
    return p;
  };
  for (const s of sandboxes.items) podFor(s.labels)?.sandboxes.push(toRuntimeSandbox(s, type));
  for (const c of containers.containers) podFor(c.labels)?.containers.push(toRuntimeContainer(c, type));
  for (const p of pods.values()) {
    p.sandboxes.sort((a, b) => b.createdAt - a.createdAt);
    p.containers.sort((a, b) => b.createdAt - a.createdAt);
  }
  return [...pods.values()];
}

/** `messages`: where exited containers' termination messages are read (none when absent). */
export async function readPodStatus(cri: Cri, type: string, uid: string, name: string, namespace: string, messages?: TerminationMessageFs): Promise<PodStatus> {
  const selector = { [POD_UID_LABEL]: uid };
  const [sbList, cList] = await Promise.all([
    cri.listPodSandbox({ filter: { labelSelector: selector } }),
    cri.listContainers({ filter: { labelSelector: selector } }),
  ]);
  const sandboxIds = [...sbList.items].sort((a, b) => b.createdAt - a.createdAt).map((s) => s.id);
  // Every sandbox and container status at once (the kubelet asks one after another): a pod read is two round
  // trips to the runtime, not 2 + sandboxes + containers.
  const [sandboxReads, containerReads] = await Promise.all([
    Promise.all(
      sandboxIds.map(async (id) => {
        try {
          const r = await cri.podSandboxStatus({ podSandboxId: id });
          return r.status ? toSandboxStatus(r.status) : undefined;
        } catch (err) {
          if (!isNotFound(err)) throw err;
          return undefined;
        }
      }),
    ),
    Promise.all(
      cList.containers.map(async (c) => {
        try {
          const r = await cri.containerStatus({ containerId: c.id });
          if (!r.status) return undefined;
          const s = toContainerStatus(r.status, type);
          if (messages && r.status.state === 'CONTAINER_EXITED') s.message = withTerminationMessage(s.message, await readTerminationMessage(messages, r.status));
          return s;
        } catch (err) {
          if (!isNotFound(err)) throw err;
          return undefined;
        }
      }),
    ),
  ]);
  const sandboxStatuses = sandboxReads.filter((s): s is SandboxStatus => s !== undefined);
  const first = sandboxStatuses[0];
  const ips = first?.state === 'ready' ? [first.ip, ...first.additionalIps].filter((x) => x !== '') : [];
  const containerStatuses = containerReads.filter((s): s is ContainerStatus => s !== undefined);
  containerStatuses.sort((a, b) => b.createdAt - a.createdAt || b.restartCount - a.restartCount);
  // A caller that knows only the uid (the evented PLEG reading a new pod an event named) gets the sandbox's names.
  const meta = sbList.items.find((sb) => sb.id === sandboxIds[0])?.metadata;
  return { uid, name: name || (meta?.name ?? ''), namespace: namespace || (meta?.namespace ?? ''), ips, sandboxStatuses, containerStatuses };
}

/** The running part of a pod status, as the pod to kill (running containers, every sandbox). */
export function runningPodFromStatus(s: PodStatus): RuntimePod {
  return {
    uid: s.uid,
    name: s.name,
    namespace: s.namespace,
    containers: s.containerStatuses
      .filter((c) => c.state === 'running' || c.state === 'unknown')
      .map((c) => ({ id: c.id, name: c.name, image: c.image, imageRef: c.imageRef, hash: c.hash, state: c.state, createdAt: c.createdAt })),
    sandboxes: s.sandboxStatuses.map((sb) => ({ id: { type: '', id: sb.id }, state: sb.state, createdAt: sb.createdAt, attempt: sb.attempt })),
  };
}
