/**
 * The one answer to "is this pod active / terminating / terminated?" (the kubelet's podStateProvider, kept by
 * the pod workers). Every manager that needs it (status, eviction, stats, volumes, container GC, API wiring,
 * streams) asks this; none keeps a predicate of its own.
 */
export interface PodStateProvider {
  /** A kill was requested for the pod (API deletion, file removal, eviction, deadline, terminal phase). */
  isPodTerminationRequested(uid: string): boolean;
  /** The pod's containers should be stopped (terminating or terminated), so none may start. */
  shouldPodContainersBeTerminating(uid: string): boolean;
  /** The pod's sandbox and containers may be removed from the runtime (its termination finished, or unknown pod). */
  shouldPodRuntimeBeRemoved(uid: string): boolean;
  /** The pod's volumes and directories may be removed (terminated and no longer desired, or unknown pod). */
  shouldPodContentBeRemoved(uid: string): boolean;
}
