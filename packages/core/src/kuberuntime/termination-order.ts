/**
 * The kubelet's terminationOrdering (kuberuntime_termination_order.go, SidecarContainers, v1.29): when a pod with
 * sidecars is killed, app containers are stopped first; each sidecar waits for every running app container and
 * for the sidecars declared after it (reverse order of declaration), at most its grace period. preStop hooks are
 * not held back: the wait comes after a container's preStop, before its StopContainer.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { isRestartableInitContainer } from '../api/pod-helpers.ts';
import type { Clock } from '../util/clock.ts';

interface Gate {
  done: Promise<void>;
  open: () => void;
}

function gate(open: boolean): Gate {
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  if (open) resolve();
  return { done, open: resolve };
}

/** Whether the pod's kill needs an ordering: it has a sidecar. */
export function hasRestartableInitContainer(pod: V1Pod | undefined): boolean {
  return (pod?.spec?.initContainers ?? []).some(isRestartableInitContainer);
}

export class TerminationOrdering {
  /** Opened once the named container was stopped (at once when it was not running). */
  private readonly terminated = new Map<string, Gate>();
  /** What each sidecar waits for. */
  private readonly prereqs = new Map<string, Promise<void>[]>();

  constructor(
    pod: V1Pod,
    runningNames: string[],
    private readonly clock: Clock,
  ) {
    const running = new Set(runningNames);
    const apps: Promise<void>[] = [];
    for (const c of pod.spec?.containers ?? []) {
      const g = gate(!running.has(c.name));
      this.terminated.set(c.name, g);
      apps.push(g.done);
    }
    let later: string | undefined;
    for (const c of [...(pod.spec?.initContainers ?? [])].reverse()) {
      this.terminated.set(c.name, gate(!running.has(c.name)));
      if (!isRestartableInitContainer(c)) continue;
      const waits = [...apps];
      if (later !== undefined) waits.push(this.terminated.get(later)!.done);
      this.prereqs.set(c.name, waits);
      later = c.name;
    }
  }

  /** Waits until the container's turn to stop, at most graceS seconds; resolves with the seconds waited. */
  async waitForTurn(name: string, graceS: number): Promise<number> {
    if (graceS <= 0) return 0;
    const start = this.clock.monotonic();
    let expired = false;
    let timer: { cancel(): void } | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = this.clock.setTimeout(() => {
        expired = true;
        resolve();
      }, graceS * 1000);
    });
    for (const p of this.prereqs.get(name) ?? []) {
      await Promise.race([p, deadline]);
      if (expired) break;
    }
    timer?.cancel();
    return (this.clock.monotonic() - start) / 1000;
  }

  /** The container was stopped: those waiting for it may go. */
  containerTerminated(name: string): void {
    this.terminated.get(name)?.open();
  }
}
