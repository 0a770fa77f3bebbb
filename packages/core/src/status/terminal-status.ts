/**
 * The status manager's TerminatePod defaulting (kubelet status_manager.go): at the end of a pod's lifecycle every
 * container without a terminated state is reported failed (ContainerStatusUnknown, exit 137) — regular containers
 * once the pod has initialized, init containers up to the last one that ever left Waiting — and a non-static pod
 * still Pending or Running becomes Failed, so that a deleted pod reaches a terminal phase and its API object can go.
 */
import type { V1ContainerStatus, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { isStaticPod } from '../api/pod-helpers.ts';

export const CONTAINER_STATUS_UNKNOWN = 'ContainerStatusUnknown';
export const CONTAINER_NOT_LOCATED = 'The container could not be located when the pod was terminated';

const unknownTerminated = (s: V1ContainerStatus): V1ContainerStatus =>
  s.state?.terminated ? s : { ...s, state: { terminated: { reason: CONTAINER_STATUS_UNKNOWN, message: CONTAINER_NOT_LOCATED, exitCode: 137 } } };

const everStarted = (s: V1ContainerStatus) => !s.state?.waiting || s.lastState?.terminated !== undefined;

/** hasPodInitialized: no init containers, a regular container that ever left Waiting, or the last init container exited 0. */
function hasPodInitialized(pod: V1Pod, status: V1PodStatus): boolean {
  if ((pod.spec?.initContainers ?? []).length === 0) return true;
  if ((status.containerStatuses ?? []).some((s) => s.lastState?.terminated || !s.state?.waiting)) return true;
  const last = status.initContainerStatuses?.at(-1);
  return last?.lastState?.terminated?.exitCode === 0 || last?.state?.terminated?.exitCode === 0;
}

/** initializedContainers: all but the trailing init containers that never started (at least the first one). */
function initializedCount(statuses: V1ContainerStatus[]): number {
  for (let i = statuses.length - 1; i >= 0; i--) if (everStarted(statuses[i]!)) return i + 1;
  return Math.min(1, statuses.length);
}

export function terminalPodStatus(pod: V1Pod, old: V1PodStatus): V1PodStatus {
  const status = structuredClone(old);
  if (hasPodInitialized(pod, status) && status.containerStatuses) status.containerStatuses = status.containerStatuses.map(unknownTerminated);
  if (status.initContainerStatuses) {
    const n = initializedCount(status.initContainerStatuses);
    status.initContainerStatuses = status.initContainerStatuses.map((s, i) => (i < n ? unknownTerminated(s) : s));
  }
  // TODO upstream (#116484): static pods keep their phase.
  if (!isStaticPod(pod) && status.phase !== 'Succeeded' && status.phase !== 'Failed') status.phase = 'Failed';
  return status;
}
