/**
 * The runtime-agnostic container model (as the kubelet's pkg/kubelet/container): what PLEG, pod workers and
 * the status code see, independent of CRI wire shapes.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { RuntimeContainerEvent } from '../cri/runtime-event-types.ts';

/** A container's state as the kubelet models it. */
export type ContainerState = 'created' | 'running' | 'exited' | 'unknown';
/** A sandbox is ready or not ready. */
export type SandboxState = 'ready' | 'notready';

/** `<type>://<id>`, e.g. `containerd://abc`. */
export interface ContainerId {
  type: string;
  id: string;
}

export function formatContainerId(c: ContainerId): string {
  return `${c.type}://${c.id}`;
}

/** A container as listed by the runtime (ListContainers): cheap, no exit details. */
export interface RuntimeContainer {
  id: ContainerId;
  name: string;
  image: string;
  imageRef: string;
  /** Hash of the container spec it was created from (label io.kubernetes.container.hash). */
  hash: string;
  state: ContainerState;
  /** Nanoseconds since the epoch (CRI), 0 when unknown. */
  createdAt: number;
}

export interface RuntimeSandbox {
  id: ContainerId;
  state: SandboxState;
  createdAt: number;
  attempt: number;
}

/** A pod as the runtime reports it (the kubelet's kubecontainer.Pod). */
export interface RuntimePod {
  uid: string;
  name: string;
  namespace: string;
  containers: RuntimeContainer[];
  sandboxes: RuntimeSandbox[];
}

/** Detailed container status (ContainerStatus RPC), the kubelet's kubecontainer.Status. */
export interface ContainerStatus {
  id: ContainerId;
  name: string;
  state: ContainerState;
  /** Epoch milliseconds (0 = unset). */
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
  message: string;
  image: string;
  imageRef: string;
  imageId: string;
  /** From annotation io.kubernetes.container.restartCount. */
  restartCount: number;
  hash: string;
  logPath: string;
  /**
   * Set when the terminated state came from a runtime event the runtime's own status does not show yet (the
   * evented PLEG's early exit): when it was heard (epoch ms). It lacks what only that read adds (the termination
   * message): the pod worker waits a while for the read (kubelet/heard-exits.ts).
   */
  exitHeardAt?: number;
  /** Where its termination message is read once it exited (kept from the runtime's read while it ran). */
  messageSource?: MessageSource;
}

/**
 * Where an exited container's termination message comes from (kept from the runtime's status while it ran, so an
 * exit heard from an event can be given its message without the runtime's read): the host side of the mount at
 * the annotated path, and whether the log is the fallback.
 */
export interface MessageSource {
  /** The file on the host; absent when the container has no termination message path or no mount at it. */
  hostPath?: string;
  fallbackToLogsOnError: boolean;
}

export interface SandboxStatus {
  id: string;
  state: SandboxState;
  /** Epoch milliseconds. */
  createdAt: number;
  attempt: number;
  ip: string;
  additionalIps: string[];
  /** Network namespace mode recorded on the sandbox (NODE = hostNetwork); undefined when not reported. */
  hostNetwork?: boolean;
}

/** Everything the runtime knows about one pod. Statuses are sorted newest first. */
export interface PodStatus {
  uid: string;
  name: string;
  namespace: string;
  ips: string[];
  sandboxStatuses: SandboxStatus[];
  containerStatuses: ContainerStatus[];
  /** Epoch ms at which this status was observed (cache bookkeeping). */
  timestamp?: number;
}

export function emptyPodStatus(uid: string, name = '', namespace = ''): PodStatus {
  return { uid, name, namespace, ips: [], sandboxStatuses: [], containerStatuses: [] };
}

/** The newest status of the container called `name`, if any. */
export function findContainerStatusByName(s: PodStatus, name: string): ContainerStatus | undefined {
  return s.containerStatuses.find((c) => c.name === name);
}

/** Per-step outcome of a sync, the kubelet's SyncResult (action, target, error reason + message). */
export type SyncAction = 'StartContainer' | 'KillContainer' | 'KillPodSandbox' | 'CreatePodSandbox' | 'InitContainer' | 'ConfigPodSandbox';

export interface SyncStepResult {
  action: SyncAction;
  target: string;
  /** Kubelet reason string (CrashLoopBackOff, ErrImagePull, CreateContainerError, ...) when failed. */
  error?: string;
  message?: string;
}

export interface PodSyncResult {
  steps: SyncStepResult[];
  /** The first failure, if any. */
  error?: { reason: string; message: string };
}

export interface KillPodOptions {
  /** Seconds; overrides the pod's terminationGracePeriodSeconds. */
  gracePeriodOverride?: number;
  /** Why (logged and put in Killing events). */
  reason?: string;
}

/** The runtime as the kubelet drives it (kuberuntime implements it over CRI). */
export interface Runtime {
  readonly type: string;
  /** All pods with containers or sandboxes known to the runtime; with all=false only running ones. */
  getPods(all: boolean): Promise<RuntimePod[]>;
  getPodStatus(uid: string, name: string, namespace: string): Promise<PodStatus>;
  /**
   * The pod's status from what a runtime event carries (the kubelet's GeneratePodStatus), with no runtime call;
   * absent where the runtime's events are not understood.
   */
  generatePodStatus?(pod: NonNullable<RuntimeContainerEvent['pod']>): Promise<PodStatus>;
  syncPod(pod: V1Pod, status: PodStatus): Promise<PodSyncResult>;
  /** Kills every container (honouring the grace period) then stops the sandboxes. */
  killPod(pod: V1Pod | undefined, running: RuntimePod, opts?: KillPodOptions): Promise<PodSyncResult>;
  version(): Promise<{ name: string; version: string; apiVersion: string }>;
}

/** PLEG writes, pod workers read. */
export interface NewerThanOptions {
  /**
   * Only the pod's own entry counts (read after minTime); the global timestamp does not. For a worker whose
   * last sync changed the runtime: "nothing changed since" is not known for the pod until it is read again.
   */
  podEntryOnly?: boolean;
}

export interface PodStatusCache {
  get(uid: string): { status: PodStatus; error?: Error; modified: number };
  /**
   * Resolves once the cache holds data for uid modified after minTime (epoch ms), or the cache's global
   * timestamp is after minTime (then with whatever it has, an empty status if none).
   */
  getNewerThan(uid: string, minTime: number, opts?: NewerThanOptions): Promise<{ status: PodStatus; error?: Error }>;
  /** `timestamp`: when the runtime read began. Dropped (false) when the cached entry is newer. */
  set(uid: string, status: PodStatus, error: Error | undefined, timestamp: number): boolean | void;
  /**
   * The pod is gone. `timestamp`: when the read that found no pod began; dropped (false) when the cached entry
   * is newer, else readers waiting for news older than it get an empty status.
   */
  delete(uid: string, timestamp?: number): boolean | void;
  /** Marks everything up to timestamp as observed (after a full relist). */
  updateTime(timestamp: number): void;
}

/** A sandbox's IPs while it is ready (the pod's IPs come from its newest sandbox so); undefined otherwise. */
export function readyIpsOf(sb: SandboxStatus | undefined): string[] | undefined {
  return sb?.state === 'ready' ? [sb.ip, ...sb.additionalIps].filter((x) => x !== '') : undefined;
}

/** The IPs of the sandbox `id` as `s` shows it, when it shows it ready; undefined otherwise. */
export function readySandboxIps(s: PodStatus, id: string): string[] | undefined {
  return readyIpsOf(s.sandboxStatuses.find((x) => x.id === id));
}
