/**
 * computePodActions: the pure decision at the heart of the kubelet's kuberuntime manager — given the
 * desired pod and what the runtime reports, which sandbox/containers to kill and which to start.
 *
 * One instance per container name, as the kubelet assumes (restart count = newest instance's + 1): beyond the
 * kubelet, an instance older than the newest one of its name that may still run is killed, and one created but
 * never started is removed (before a new attempt is started), so two instances of a container never run side
 * by side, whatever an older agent or a racing sync left behind.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { findContainerStatusByName, type PodStatus } from '../container/types.ts';
import { hashContainer } from '../container/hash.ts';
import { addEphemeralContainerActions } from './ephemeral-containers.ts';
import { failedProbe, notStartedRemoval, probeKill, restartPolicyOf, shouldRestartOnFailure } from './action-rules.ts';
import { computeInitContainerActions } from './init-actions.ts';
import type { ContainerProbeResults, ContainerToKill, PodActions } from './types.ts';

/** Whether the sandbox must be (re)created; with the attempt number and the newest sandbox id. */
export function podSandboxChanged(pod: V1Pod, status: PodStatus): { changed: boolean; attempt: number; sandboxId: string } {
  const newest = status.sandboxStatuses[0];
  if (!newest) return { changed: true, attempt: 0, sandboxId: '' };
  const ready = status.sandboxStatuses.filter((s) => s.state === 'ready').length;
  const next = { attempt: newest.attempt + 1, sandboxId: newest.id };
  if (ready > 1) return { changed: true, ...next };
  if (newest.state !== 'ready') return { changed: true, ...next };
  const wantHost = pod.spec?.hostNetwork === true;
  if (newest.hostNetwork !== undefined && newest.hostNetwork !== wantHost) return { changed: true, ...next };
  return { changed: false, attempt: newest.attempt, sandboxId: newest.id };
}

export function shouldContainerBeRestarted(c: V1Container, pod: V1Pod, status: PodStatus): boolean {
  if (pod.metadata?.deletionTimestamp) return false;
  const cs = findContainerStatusByName(status, c.name);
  if (!cs) return true;
  if (cs.state === 'running') return false;
  if (cs.state === 'unknown' || cs.state === 'created') return true;
  const policy = restartPolicyOf(pod);
  if (policy === 'Never') return false;
  if (policy === 'OnFailure' && cs.exitCode === 0) return false;
  return true;
}

function containerSucceeded(c: V1Container, status: PodStatus): boolean {
  const cs = findContainerStatusByName(status, c.name);
  return cs !== undefined && cs.state === 'exited' && cs.exitCode === 0;
}

function emptyActions(): PodActions {
  return { killPod: false, createSandbox: false, sandboxId: '', attempt: 0, initContainersToStart: [], containersToStart: [], containersToKill: [] };
}

/**
 * probes: the liveness and startup results per container id (the prober's results managers); a running
 * container whose result is Failure is killed, and restarted unless restartPolicy is Never. A new instance has
 * a new id, so the failure no longer applies once the container was restarted.
 */
export function computePodActions(pod: V1Pod, status: PodStatus, probes?: ContainerProbeResults): PodActions {
  const sb = podSandboxChanged(pod, status);
  const actions: PodActions = { ...emptyActions(), killPod: sb.changed, createSandbox: sb.changed, sandboxId: sb.sandboxId, attempt: sb.attempt };
  if (sb.changed) return sandboxActions(pod, status, actions);
  // Ephemeral containers may start even while the pod initializes (never when the sandbox is re-created).
  addEphemeralContainerActions(pod, status, actions);
  killExtraInstances(pod, status, actions);
  // Init containers first (sidecars kept running); app containers once the pod has initialized.
  if (!computeInitContainerActions(pod, status, actions, probes) || actions.killPod) return actions;
  appContainerActions(pod, status, actions, probes);
  return actions;
}

/** Sandbox (re)creation: start from the first init container, or all app containers. */
function sandboxActions(pod: V1Pod, status: PodStatus, actions: PodActions): PodActions {
  if (!shouldRestartOnFailure(pod) && actions.attempt !== 0 && status.containerStatuses.length !== 0) {
    actions.createSandbox = false;
    return actions;
  }
  const toStart: number[] = [];
  (pod.spec?.containers ?? []).forEach((c, i) => {
    if (restartPolicyOf(pod) === 'OnFailure' && containerSucceeded(c, status)) return;
    toStart.push(i);
  });
  if (toStart.length === 0) {
    actions.createSandbox = false;
    return actions;
  }
  if ((pod.spec?.initContainers ?? []).length > 0) {
    actions.initContainersToStart = [0];
    return actions;
  }
  actions.containersToStart = toStart;
  return actions;
}

function appContainerActions(pod: V1Pod, status: PodStatus, actions: PodActions, probes?: ContainerProbeResults): void {
  let keep = 0;
  (pod.spec?.containers ?? []).forEach((c, idx) => {
    const cs = findContainerStatusByName(status, c.name);
    if (!cs || cs.state !== 'running') {
      if (shouldContainerBeRestarted(c, pod, status)) {
        actions.containersToStart.push(idx);
        if (cs?.state === 'unknown') {
          actions.containersToKill.push({ id: cs.id, name: c.name, container: c, message: 'Container is in unknown state, try killing it before restart', reason: 'UnknownState' });
        }
        if (cs?.state === 'created') actions.containersToKill.push(notStartedRemoval(cs, c));
      }
      return;
    }
    if (cs.hash !== '' && cs.hash !== hashContainer(c)) {
      actions.containersToStart.push(idx);
      const kill: ContainerToKill = { id: cs.id, name: c.name, container: c, message: `Container ${c.name} definition changed, will be restarted`, reason: 'SpecChanged' };
      actions.containersToKill.push(kill);
      return;
    }
    const failed = failedProbe(cs, probes);
    if (!failed) {
      keep++;
      return;
    }
    // As the kubelet: killed; restarted too unless restartPolicy is Never (then, with nothing kept, the pod is).
    const restart = shouldRestartOnFailure(pod);
    if (restart) actions.containersToStart.push(idx);
    actions.containersToKill.push(probeKill(pod, c, cs, failed, `Container ${c.name} failed ${failed} probe${restart ? ', will be restarted' : ''}`));
  });
  // Nothing runs or will: the pod is done, and its sidecars do not keep it alive (they are stopped, not restarted).
  if (keep === 0 && actions.containersToStart.length === 0) {
    actions.killPod = true;
    actions.initContainersToStart = [];
  }
}

/**
 * Instances of a spec container older than its newest one (statuses are newest first) that run, may run
 * (unknown) or may still be started (created): killed, or removed. The newest is the container the pod status
 * shows and the restart count follows.
 */
function killExtraInstances(pod: V1Pod, status: PodStatus, actions: PodActions): void {
  const specs = new Map([...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => [c.name, c]));
  const newest = new Set<string>();
  for (const cs of status.containerStatuses) {
    const c = specs.get(cs.name);
    if (!c) continue;
    if (!newest.has(cs.name)) {
      newest.add(cs.name);
      continue;
    }
    if (cs.state === 'created') actions.containersToKill.push(notStartedRemoval(cs, c));
    if (cs.state !== 'running' && cs.state !== 'unknown') continue;
    const message = `Container ${cs.name} has a newer instance, killing the older one (restart count ${cs.restartCount})`;
    actions.containersToKill.push({ id: cs.id, name: cs.name, container: c, message, reason: 'Duplicate' });
  }
}
