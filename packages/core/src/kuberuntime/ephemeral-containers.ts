/**
 * Ephemeral containers (`kubectl debug`), as the kubelet's kuberuntime manager runs them (v1.28
 * kuberuntime_manager.go computePodActions / SyncPod step 6, kuberuntime_container.go startSpec):
 * - one is started once, when the runtime has no container of its name in the pod; it is never restarted
 *   (an exited one stays exited), started even while init containers run, and not when the sandbox is being
 *   (re)created or the pod killed;
 * - it never counts for the pod's own lifecycle (not kept, not killed, not restarted); it is stopped with the pod;
 * - `targetContainerName` puts it in the target container's PID namespace (NamespaceMode TARGET with the target's
 *   id) when the pod's containers have their own PID namespaces; a target that is not running is
 *   CreateContainerConfigError "unable to find target container <name>".
 * Names are unique across containers, init containers and ephemeral containers (API validation), so a name
 * tells an ephemeral container from the others.
 */
import type { V1Container, V1ContainerStatus, V1EphemeralContainer, V1Pod } from '@kubernetes/client-node';
import { findContainerStatusByName, type PodStatus } from '../container/types.ts';
import type { ContainerConfig } from '../cri/types.ts';
import type { PodActions } from './types.ts';

/** The pod's ephemeral container of that name, if it is one. */
export function ephemeralContainerNamed(pod: V1Pod, name: string): V1EphemeralContainer | undefined {
  return (pod.spec?.ephemeralContainers ?? []).find((ec) => ec.name === name);
}

/** The container an ephemeral container runs as (EphemeralContainerCommon: the spec without its target). */
export function ephemeralAsContainer(ec: V1EphemeralContainer): V1Container {
  const { targetContainerName: _target, ...common } = ec;
  return common;
}

/** EphemeralContainersToStart: the indexes of spec.ephemeralContainers the runtime has no container for. */
export function ephemeralContainersToStart(pod: V1Pod, status: PodStatus): number[] {
  const out: number[] = [];
  (pod.spec?.ephemeralContainers ?? []).forEach((ec, i) => {
    if (!findContainerStatusByName(status, ec.name)) out.push(i);
  });
  return out;
}

/** Sets actions.ephemeralContainersToStart when there are any (computePodActions, after the sandbox check). */
export function addEphemeralContainerActions(pod: V1Pod, status: PodStatus, actions: PodActions): void {
  const idx = ephemeralContainersToStart(pod, status);
  if (idx.length > 0) actions.ephemeralContainersToStart = idx;
}

/** The ephemeral containers SyncPod starts: none while the pod is killed (its sandbox is going away). */
export function ephemeralContainersToRun(pod: V1Pod, actions: PodActions): V1Container[] {
  if (actions.killPod) return [];
  return (actions.ephemeralContainersToStart ?? []).flatMap((i) => {
    const ec = pod.spec?.ephemeralContainers?.[i];
    return ec ? [ephemeralAsContainer(ec)] : [];
  });
}

export type TargetResult = { ok: true; id?: string } | { ok: false; message: string };

/** startSpec.getTargetID: the running target container's runtime id (none without a target). */
export function targetContainerId(pod: V1Pod, name: string, status: PodStatus): TargetResult {
  const target = ephemeralContainerNamed(pod, name)?.targetContainerName;
  if (!target) return { ok: true };
  const cs = findContainerStatusByName(status, target);
  if (!cs || cs.state !== 'running') return { ok: false, message: `unable to find target container ${target}` };
  return { ok: true, id: cs.id.id };
}

/** The target's PID namespace, when the container would otherwise get its own (not shareProcessNamespace / hostPID). */
export function useTargetPidNamespace(config: ContainerConfig, targetId: string | undefined): void {
  const ns = config.linux?.securityContext?.namespaceOptions;
  if (!targetId || !ns || ns.pid !== 'CONTAINER') return;
  ns.pid = 'TARGET';
  ns.targetId = targetId;
}

/** An ephemeral container's API status: never ready, no `started` (the prober does not fill it). */
export function ephemeralStatus(s: V1ContainerStatus): V1ContainerStatus {
  const { started: _started, ...rest } = s;
  return { ...rest, ready: false };
}
