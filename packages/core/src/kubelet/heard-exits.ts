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
 * How long the pod worker waits for the runtime to show an exit it heard of: the event source's settle bound
 * (cri-settle.ts, 2 s). A runtime that lags longer (containerd's CRI after a SIGKILL under load, seen for over a
 * minute) does not hold the restart: the exit as the event told it is used, without its message.
 */
export const HEARD_EXIT_WAIT_MS = 2_000;

export type HeardExits = { status: PodStatus } | { status: undefined; retryAfterMs: number };

/**
 * The status to sync from: `cached` when it holds no exit only heard of; else the runtime's read when it shows
 * them all (message included); else, while the newest was heard less than HEARD_EXIT_WAIT_MS ago, none (nothing is
 * published or decided; the PLEG's PodSync or the retry brings the pod back); after that, `cached`.
 */
export async function readHeardExits(runtime: Pick<KubeRuntimeManager, 'getPodStatus'>, pod: V1Pod, cached: PodStatus, now: number): Promise<HeardExits> {
  const heard = cached.containerStatuses.filter((s) => s.exitHeardAt !== undefined);
  if (heard.length === 0) return { status: cached };
  const read = await runtime.getPodStatus(pod.metadata?.uid ?? '', pod.metadata?.name ?? '', pod.metadata?.namespace ?? 'default').catch(() => undefined);
  if (read && heard.every((h) => read.containerStatuses.some((s) => s.id.id === h.id.id && s.state === 'exited'))) return { status: read };
  const waited = now - Math.max(...heard.map((h) => h.exitHeardAt ?? 0));
  return waited >= HEARD_EXIT_WAIT_MS ? { status: cached } : { status: undefined, retryAfterMs: HEARD_EXIT_WAIT_MS - waited };
}
