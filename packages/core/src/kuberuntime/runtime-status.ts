/** Reading the runtime: all pods (ListPodSandbox + ListContainers) and one pod's full status. */
import type { CriClient } from '../cri/types.ts';
import { deepFreeze } from '../cri/deep-freeze.ts';
import type { Container__Output, ContainerStatus__Output, PodSandbox__Output, PodSandboxStatus__Output } from '../cri/proto-types.ts';
import { isNotFound } from '../cri/types.ts';
import { podInfoFromLabels, POD_UID_LABEL } from '../container/labels.ts';
import { readyIpsOf, type ContainerStatus, type PodStatus, type RuntimePod, type SandboxStatus } from '../container/types.ts';
import { toContainerStatus, toRuntimeContainer, toRuntimeSandbox, toSandboxStatus } from './convert.ts';
import { fallsBackToLogs, messageSourceOf, readMessageFile, readTerminationMessage, withTerminationMessage, type TerminationMessageFs } from './termination-message.ts';

type Cri = Pick<CriClient, 'listPodSandbox' | 'listContainers' | 'podSandboxStatus' | 'containerStatus'>;

/**
 * The last lists and their conversion, per client and filter: the CRI client hands out the same (frozen) answer
 * while the runtime's bytes do not change (cri/list-memo.ts), so HandlePodCleanups every 2 s converts nothing then.
 */
const lastConversion = new WeakMap<Cri, Map<string, { sandboxes: object; containers: object; pods: RuntimePod[] }>>();

/** The runtime's pods (running ones unless `all`), deep-frozen: callers share one result while nothing changes. */
export async function listRuntimePods(cri: Cri, type: string, all: boolean): Promise<RuntimePod[]> {
  const [sandboxes, containers] = await Promise.all([
    cri.listPodSandbox(all ? {} : { filter: { state: { state: 'SANDBOX_READY' } } }),
    cri.listContainers(all ? {} : { filter: { state: { state: 'CONTAINER_RUNNING' } } }),
  ]);
  const key = `${type}\0${all}`;
  let byKey = lastConversion.get(cri);
  const last = byKey?.get(key);
  if (last && last.sandboxes === sandboxes && last.containers === containers) return last.pods;
  const pods = deepFreeze(toRuntimePods(sandboxes.items, containers.containers, type));
  if (!byKey) lastConversion.set(cri, (byKey = new Map()));
  byKey.set(key, { sandboxes, containers, pods });
  return pods;
}

function toRuntimePods(sandboxes: PodSandbox__Output[], containers: Container__Output[], type: string): RuntimePod[] {
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
  for (const s of sandboxes) podFor(s.labels)?.sandboxes.push(toRuntimeSandbox(s, type));
  for (const c of containers) podFor(c.labels)?.containers.push(toRuntimeContainer(c, type));
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
          return r.status ? await containerStatusOf(r.status, type, messages) : undefined;
        } catch (err) {
          if (!isNotFound(err)) throw err;
          return undefined;
        }
      }),
    ),
  ]);
  // A caller that knows only the uid (the evented PLEG reading a new pod an event named) gets the sandbox's names.
  const meta = sbList.items.find((sb) => sb.id === sandboxIds[0])?.metadata;
  return podStatusOf(
    { uid, name: name || (meta?.name ?? ''), namespace: namespace || (meta?.namespace ?? '') },
    sandboxReads.filter((s): s is SandboxStatus => s !== undefined),
    containerReads.filter((s): s is ContainerStatus => s !== undefined),
  );
}

/**
 * A pod's status from a runtime event that carries it (the kubelet's GeneratePodStatus): the event's sandbox and
 * its containers as the event shows them, with no runtime call (an exited container's termination message is read
 * as readPodStatus reads it).
 */
export async function podStatusFromEvent(pod: { sandbox: PodSandboxStatus__Output; containers: ContainerStatus__Output[] }, type: string, messages?: TerminationMessageFs): Promise<PodStatus> {
  const meta = pod.sandbox.metadata;
  const containers = await Promise.all(pod.containers.map((c) => containerStatusOf(c, type, messages)));
  return podStatusOf({ uid: meta?.uid ?? '', name: meta?.name ?? '', namespace: meta?.namespace ?? '' }, [toSandboxStatus(pod.sandbox)], containers);
}

async function containerStatusOf(status: ContainerStatus__Output, type: string, messages?: TerminationMessageFs): Promise<ContainerStatus> {
  const s = toContainerStatus(status, type);
  if (!messages) return s;
  if (status.state === 'CONTAINER_EXITED') s.message = withTerminationMessage(s.message, await readTerminationMessage(messages, status));
  else s.messageSource = messageSourceOf(status);
  return s;
}

/**
 * The message of a container whose exit was heard from an event (exitHeardAt) before the runtime's read shows it,
 * read as that read would: its file on the host, from the source kept while it ran. Undefined when only the
 * runtime's read can tell: no source kept, or the log is to stand in for an empty or missing file (the runtime
 * may still be copying the container's last output into it; containerd's CRI marks the container exited only
 * after that copy).
 */
export async function heardExitMessage(c: ContainerStatus, messages?: TerminationMessageFs): Promise<string | undefined> {
  if (!messages) return c.message;
  if (!c.messageSource) return undefined;
  const [message, checkLogs] = await readMessageFile(messages, c.messageSource.hostPath, fallsBackToLogs(c.messageSource, c));
  return checkLogs ? undefined : withTerminationMessage(c.message, message);
}

/** Sandboxes newest first; the pod's IPs are the newest sandbox's while it is ready; containers newest first. */
function podStatusOf(pod: { uid: string; name: string; namespace: string }, sandboxStatuses: SandboxStatus[], containerStatuses: ContainerStatus[]): PodStatus {
  const ips = readyIpsOf(sandboxStatuses[0]) ?? [];
  containerStatuses.sort((a, b) => b.createdAt - a.createdAt || b.restartCount - a.restartCount);
  return { ...pod, ips, sandboxStatuses, containerStatuses };
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
