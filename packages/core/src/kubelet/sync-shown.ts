/**
 * Whether a pod status shows every change a sync made to the runtime, so that it may stand for a read of the pod
 * begun after the sync (the pod worker's fresh read, pod-workers.ts). With the evented PLEG the pod's cache entry
 * is built from the runtime's own event of the change (the kubelet's GeneratePodStatus from the
 * ContainerEventResponse): the started event of the last container a sync starts reaches the agent about when
 * StartContainer returns, and shows the whole pod at that moment. Anything that happens to the pod after it (an
 * exit) comes as an event of its own and syncs the pod again, as under the kubelet's EventedPLEG, whose cache is
 * fed by events only.
 *
 * Only syncs whose every step is a sandbox created or a container started qualify (back-off steps change nothing):
 * a kill, a removal or a failed step (which may have left a created container or half a sandbox behind) still
 * needs the read.
 */
import type { PodStatus, PodSyncResult, SyncAction } from '../container/types.ts';

const SHOWN: ReadonlySet<SyncAction> = new Set(['CreatePodSandbox', 'StartContainer', 'InitContainer']);

/**
 * `before`: the status the sync acted on. The predicate holds for a status with a ready sandbox the sync created
 * (when it created one) and, for each container it started, an instance that `before` did not have and that the
 * runtime has started (running, or exited since).
 */
export function syncShownBy(before: PodStatus, result: PodSyncResult): ((status: PodStatus) => boolean) | undefined {
  const steps = result.steps.filter((s) => s.error !== 'CrashLoopBackOff');
  if (steps.length === 0 || steps.some((s) => s.error !== undefined || !SHOWN.has(s.action))) return undefined;
  const oldSandboxes = new Set(before.sandboxStatuses.map((s) => s.id));
  const oldContainers = new Set(before.containerStatuses.map((c) => c.id.id));
  const sandbox = steps.some((s) => s.action === 'CreatePodSandbox');
  const started = steps.filter((s) => s.action !== 'CreatePodSandbox').map((s) => s.target);
  return (status) =>
    (!sandbox || status.sandboxStatuses.some((s) => s.state === 'ready' && !oldSandboxes.has(s.id))) &&
    started.every((name) =>
      status.containerStatuses.some((c) => c.name === name && !oldContainers.has(c.id.id) && (c.state === 'running' || c.state === 'exited')),
    );
}
