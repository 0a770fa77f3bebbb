/**
 * The evented PLEG's part in a pod start's path (docs/performance.md, ninth round): the events heard in a turn are
 * handled after it, so a reply that came with them goes first (HeardEvents), and a pod's own created / started events
 * are left to its worker's read after its sync (LeftToWorker).
 */
import { readyIpsOf } from '../container/types.ts';
import type { RuntimeContainerEvent } from '../cri/runtime-events.ts';
import { toSandboxStatus } from '../kuberuntime/convert.ts';

/**
 * Events heard in this turn, handled once it ends: a runtime sends a sandbox's or container's events just before the
 * reply to the call that made them (the embedded runtime, containerd's GetContainerEvents), and the reply — the next
 * step of a pod's start — goes first. Each event took ≈ 1.5 ms of a start's path.
 */
export class HeardEvents {
  private queue: RuntimeContainerEvent[] = [];

  /** Queues `ev`; `handle` runs after this turn with every event heard in it, in order. */
  push(ev: RuntimeContainerEvent, handle: (evs: RuntimeContainerEvent[]) => void): void {
    if (this.queue.push(ev) > 1) return;
    setImmediate(() => {
      const evs = this.queue;
      this.queue = [];
      handle(evs);
    });
  }

  get size(): number {
    return this.queue.length;
  }

  /**
   * A sandbox's IPs as a heard event shows it ready: the reply to RunPodSandbox, handled before the events that came
   * with it, finds them here instead of asking PodSandboxStatus.
   */
  sandboxIps(podSandboxId: string): string[] | undefined {
    const sb = this.queue.findLast((ev) => ev.pod?.sandbox.id === podSandboxId)?.pod?.sandbox;
    return readyIpsOf(sb && toSandboxStatus(sb));
  }
}

/**
 * A container or sandbox created or started while the pod's worker syncs the pod is that sync's own doing (only the
 * kubelet creates and starts them), and a sync that created or started anything reads the pod once it ends
 * (pod-workers.ts): an event that does not carry the whole pod (containerd's task events) needs no settle and read of
 * its own — that read publishes the pod's transitions instead. On containerd 1.6 those were ≈ 12 CRI calls per pod
 * start beside the start's own three.
 */
export class LeftToWorker {
  private readonly uids = new Set<string>();

  constructor(private readonly syncingPod?: (uid: string) => boolean) {}

  /** True, and remembered, when `ev` is left to the read of the worker syncing pod `uid`. */
  leave(uid: string, ev: RuntimeContainerEvent): boolean {
    if ((ev.kind !== 'created' && ev.kind !== 'started') || ev.pod || this.syncingPod?.(uid) !== true) return false;
    this.uids.add(uid);
    if (this.uids.size > 4096) this.uids.delete(this.uids.values().next().value!); // a worker gone before its read
    return true;
  }

  /** True once for a pod whose events were left to its worker: its read is to publish them. */
  take(uid: string): boolean {
    return this.uids.delete(uid);
  }
}
