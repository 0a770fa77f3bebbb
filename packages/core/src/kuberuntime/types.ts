/** kuberuntime's own types: the actions a sync computes, its config and the seams it is driven through. */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { ContainerId } from '../container/types.ts';
import type { BackoffConfig } from '../util/backoff.ts';

export type KillReason = 'SpecChanged' | 'UnknownState' | 'PodTerminating' | 'LivenessProbe' | 'StartupProbe' | 'NotStarted' | 'Duplicate';

/** A probe type's latest result per runtime container id (the prober's results managers). */
export interface ProbeResultsView {
  get(containerId: string): 'success' | 'failure' | 'unknown' | undefined;
}

/** The liveness and startup results computePodActions reads (the kubelet's livenessManager / startupManager). */
export interface ContainerProbeResults {
  liveness?: ProbeResultsView;
  startup?: ProbeResultsView;
}

export interface ContainerToKill {
  id: ContainerId;
  name: string;
  /** Undefined when the container is not in the pod spec (orphan). */
  container?: V1Container;
  message: string;
  reason: KillReason;
  /**
   * Created but never started: RemoveContainer instead of a stop (a no-op on a created container). A runtime
   * refuses while a start is still in flight (containerd: "container is in starting state"), so the sync
   * stops there rather than start another attempt beside it.
   */
  remove?: boolean;
  /** The grace period before preStop (a liveness/startup kill: the probe's terminationGracePeriodSeconds). */
  gracePeriodS?: number;
}

/** What syncPod must do, as the kubelet's podActions. */
export interface PodActions {
  /** Stop every container and the sandbox(es). */
  killPod: boolean;
  /** Create a (new) sandbox after the kill. */
  createSandbox: boolean;
  /** ID of the newest existing sandbox ('' when none). */
  sandboxId: string;
  /** Attempt number for the new sandbox. */
  attempt: number;
  /**
   * Indexes into spec.initContainers to start, in spec order: the next init container, and sidecars
   * (restartPolicy Always) that exited or must be restarted.
   */
  initContainersToStart: number[];
  /** Indexes into spec.containers to start. */
  containersToStart: number[];
  /** Indexes into spec.ephemeralContainers to start (set only when there are any; they are never restarted). */
  ephemeralContainersToStart?: number[];
  containersToKill: ContainerToKill[];
}

/** Where kuberuntime reports Kubernetes Events (adapted to the EventRecorder by the kubelet). */
export type EventSink = (
  pod: V1Pod,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  fieldPath?: string,
) => void;

/** Optional metrics seam: kubelet_runtime_operations_* and friends. */
export interface RuntimeMetrics {
  /** One CRI operation (e.g. 'create_container') took `seconds`; `error` when it failed; RunPodSandbox's handler. */
  observeOperation(operation: string, seconds: number, error: boolean, runtimeHandler?: string): void;
}

/** The slice of the filesystem kuberuntime needs (log directories). */
export interface RuntimeFs {
  mkdirp(path: string): Promise<void>;
}

export interface KubeRuntimeConfig {
  /** e.g. /var/log/pods. */
  podLogsDir: string;
  /** The kubelet's --root-dir: termination message files go under `<rootDir>/pods/<uid>/containers/<name>/`. */
  rootDir?: string;
  nodeName: string;
  /** The node's IPs (--node-ip, else the default InternalIP): hostIP of every pod, pod IPs of hostNetwork pods. */
  hostIPs?: string[];
  /** Crash-loop backoff: 10 s doubling to 300 s. */
  crashLoopBackOff: BackoffConfig;
  /** Cgroup parent for a pod's sandbox; default `/kubepods[/burstable|/besteffort]/pod<uid>`. */
  cgroupParent?: (pod: V1Pod) => string;
  /** Container runtime type used in container IDs (`<type>://<id>`); default from CRI Version runtimeName. */
  runtimeType?: string;
}

export const MIN_GRACE_PERIOD_SECONDS = 2;
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
