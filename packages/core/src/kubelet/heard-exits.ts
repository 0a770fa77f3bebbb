/**
 * Exits heard from a runtime event before the runtime's status shows them (the evented PLEG's early exit, e.g.
 * containerd's TaskExit, 30–110 ms ahead of its CRI ContainerStatus) carry the exit code, time and reason but not
 * the termination message, which the kubelet publishes with the container's termination (upstream "Container
 * Runtime blackbox test on terminated container" reads it as soon as the phase is terminal). The message is read
 * here as the runtime's read would read it — the container's file on the host, whose place was kept from the
 * runtime's read while it ran (ContainerStatus.messageSource) — so the pod worker does not wait for the runtime.
 * Only when the log is to stand in for the message (FallbackToLogsOnError: the runtime may still be copying the
 * container's last output) or no place was kept does it wait for the runtime's read.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerStatus, PodStatus } from '../container/types.ts';
import type { KubeRuntimeManager } from '../kuberuntime/runtime-manager.ts';

/**
 * How long the pod worker waits for the runtime to show an exit whose message only its read can give: the event
 * source's settle bound (cri-settle.ts, 2 s). A runtime that lags longer (containerd's CRI after a SIGKILL under
 * load, seen for over a minute) does not hold the restart: the exit as the event told it is used, without its
 * message.
 */
export const HEARD_EXIT_WAIT_MS = 2_000;

export type HeardExits = { status: PodStatus } | { status: undefined; retryAfterMs: number };

/**
 * The status to sync from: `cached` when it holds no exit only heard of; `cached` with the heard exits' messages
 * when each can be read here; else the runtime's read when it shows them all (message included); else, while the
 * newest was heard less than HEARD_EXIT_WAIT_MS ago, none (nothing is published or decided; the PLEG's PodSync or
 * the retry brings the pod back); after that, `cached`.
 */
export async function readHeardExits(runtime: Pick<KubeRuntimeManager, 'getPodStatus' | 'heardExitMessage'>, pod: V1Pod, cached: PodStatus, now: number): Promise<HeardExits> {
  const heard = cached.containerStatuses.filter((s) => s.exitHeardAt !== undefined);
  if (heard.length === 0) return { status: cached };
  const messages = await Promise.all(heard.map((h) => runtime.heardExitMessage(h)));
  if (messages.every((m) => m !== undefined)) return { status: withMessages(cached, heard, messages as string[]) };
  const read = await runtime.getPodStatus(pod.metadata?.uid ?? '', pod.metadata?.name ?? '', pod.metadata?.namespace ?? 'default').catch(() => undefined);
  if (read && heard.every((h) => read.containerStatuses.some((s) => s.id.id === h.id.id && s.state === 'exited'))) return { status: read };
  const waited = now - Math.max(...heard.map((h) => h.exitHeardAt ?? 0));
  return waited >= HEARD_EXIT_WAIT_MS ? { status: cached } : { status: undefined, retryAfterMs: HEARD_EXIT_WAIT_MS - waited };
}

function withMessages(cached: PodStatus, heard: ContainerStatus[], messages: string[]): PodStatus {
  const byStatus = new Map(heard.map((h, i) => [h, messages[i]]));
  const containerStatuses = cached.containerStatuses.map((c) => {
    const message = byStatus.get(c);
    return message === undefined || message === c.message ? c : { ...c, message };
  });
  return { ...cached, containerStatuses };
}
