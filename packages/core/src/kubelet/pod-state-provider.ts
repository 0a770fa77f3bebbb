/**
 * The one answer to "is this pod active / terminating / terminated?" (the kubelet's podStateProvider, kept by
 * the pod workers). Every manager that needs it (status, eviction, stats, volumes, container GC, API wiring,
 * streams) asks this; none keeps a predicate of its own.
 */
export interface PodStateProvider {
  /** A kill was requested for the pod (API deletion, file removal, eviction, deadline, terminal phase); false for an unknown pod. */
  isPodTerminationRequested(uid: string): boolean;
  /**
   * The pod's worker has started terminating it (syncPod will not run again), so none of its containers may
   * start; an unknown pod: true once the workers synced the known pods (every source ready).
   */
  shouldPodContainersBeTerminating(uid: string): boolean;
  /** The pod's sandbox and containers may be removed from the runtime (terminated; an unknown pod once synced). */
  shouldPodRuntimeBeRemoved(uid: string): boolean;
  /** The pod's volumes and directories may be removed (evicted, or deleted and terminated; an unknown pod once synced). */
  shouldPodContentBeRemoved(uid: string): boolean;
}
