/**
 * Exits heard from a runtime event before the runtime's status shows them (the evented PLEG's early exit, e.g.
 * containerd's TaskExit ahead of CRI ContainerStatus) lack what only the runtime's read adds — the termination
 * message from the container's file or log (kuberuntime/termination-message.ts) — and the kubelet publishes a
 * container's termination from that read (upstream "Container Runtime blackbox test on terminated container"
 * reads the message as soon as the phase is terminal).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { PodStatus } from '../container/types.ts';
import type { KubeRuntimeManager } from '../kuberuntime/runtime-manager.ts';

/**
 * The pod read from the runtime now, when it shows every exit `cached` only heard of; undefined while it does not
 * (then nothing is published or decided: the PLEG's PodSync brings the pod back once a read shows them).
 */
export async function readHeardExits(runtime: Pick<KubeRuntimeManager, 'getPodStatus'>, pod: V1Pod, cached: PodStatus): Promise<PodStatus | undefined> {
  const read = await runtime.getPodStatus(pod.metadata?.uid ?? '', pod.metadata?.name ?? '', pod.metadata?.namespace ?? 'default').catch(() => undefined);
  const heard = cached.containerStatuses.filter((s) => s.exitFromEvent).map((s) => s.id.id);
  return read && heard.every((id) => read.containerStatuses.some((s) => s.id.id === id && s.state === 'exited')) ? read : undefined;
}
