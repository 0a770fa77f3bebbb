/**
 * Runtime-agnostic container lifecycle events, as the event sources (cri-events.ts, containerd-events.ts)
 * produce them and the evented PLEG consumes them; runtime-events.ts picks the source.
 */
import type { ContainerStatus__Output, PodSandboxStatus__Output } from './proto-types.ts';
export type RuntimeContainerEventKind = 'created' | 'started' | 'exited' | 'deleted' | 'oom';

/**
 * One lifecycle step of a container. Pod sandboxes appear too (containerId = the sandbox id), as both
 * sources report them: consumers match ids against what they know.
 */
export interface RuntimeContainerEvent {
  kind: RuntimeContainerEventKind;
  containerId: string;
  /** The pod sandbox holding the container, when the source knows it (equals containerId for a sandbox). */
  sandboxId?: string;
  /**
   * The pod's uid (its sandbox's metadata.uid), when the source says it (CRI events carry the sandbox's status):
   * a consumer can re-read that one pod for an id it does not know yet (a new pod) instead of relisting.
   */
  podUid?: string;
  /** When it happened, ms since the epoch (for 'exited': the process's exit time). */
  time: number;
  /** Only on 'exited': the process's exit code (128 + signal when killed by a signal). */
  exitCode?: number;
  /**
   * Only on 'exited', when the source knows it: the container's terminated state as the runtime's CRI status
   * will report it, so a consumer can show the exit before (or without) asking ContainerStatus.
   */
  exit?: ContainerExit;
  /**
   * The pod as the event shows it, when the source carries it (a CRI ContainerEventResponse's pod_sandbox_status
   * and containers_statuses: the event's sandbox and every container of it, as of the event): the evented PLEG
   * builds the pod's status from it (the kubelet's GeneratePodStatus) instead of reading the pod again.
   */
  pod?: { sandbox: PodSandboxStatus__Output; containers: ContainerStatus__Output[] };
  source: 'cri' | 'containerd';
}

/** A container's terminated state (the exited fields of a CRI ContainerStatus; finishedAt in epoch ms). */
export interface ContainerExit {
  exitCode: number;
  finishedAt: number;
  reason: string;
  message: string;
}

export interface RuntimeEventSource {
  /** For logs and status pages, e.g. 'cri' or 'containerd'. */
  readonly name: string;
  /**
   * Live events from now on (no replay). Iteration ends quietly when `signal` aborts; it throws a CriError
   * when the stream cannot be opened or breaks (UNIMPLEMENTED, UNAVAILABLE, or the server ending it).
   */
  subscribe(signal: AbortSignal): AsyncIterable<RuntimeContainerEvent>;
  /**
   * For sources that run ahead of the runtime's CRI state (containerd's event service): resolves once CRI
   * status reflects `ev`, so a consumer reading ContainerStatus after it sees the new state. Absent = CRI is
   * already up to date when the event arrives.
   */
  settle?(ev: RuntimeContainerEvent, signal: AbortSignal): Promise<unknown>;
}
