/**
 * computeInitContainerActions: the init container part of computePodActions with the kubelet's SidecarContainers
 * behaviour (kuberuntime_container.go, on by default since v1.29). Init containers start in order; a regular one
 * must exit 0 before the next starts, a sidecar (restartPolicy Always, KEP-753) counts as done once it runs and
 * its startup probe (if any) succeeded, and it is kept running: restarted whenever it exits, whatever the pod's
 * restartPolicy (the CrashLoopBackOff of the start applies), killed and restarted when its liveness or startup
 * probe fails (as v1.29, a changed sidecar definition does not restart it).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { findContainerStatusByName, type PodStatus } from '../container/types.ts';
import { isRestartableInitContainer } from '../api/pod-helpers.ts';
import { isInitContainerFailed, notStartedRemoval, probeKill, shouldRestartOnFailure } from './action-rules.ts';
import type { ContainerProbeResults, PodActions } from './types.ts';

/** A created or running app container: the pod was initialized (an exited one may be from an older sandbox). */
function appContainerCreated(pod: V1Pod, status: PodStatus): boolean {
  return (pod.spec?.containers ?? []).some((c) => {
    const state = findContainerStatusByName(status, c.name)?.state;
    return state === 'created' || state === 'running';
  });
}

/**
 * Adds to actions.initContainersToStart (in spec order) and actions.containersToKill what the init containers
 * need; sets killPod when a regular init container failed and the pod does not restart. Returns whether the pod
 * has been initialized (app containers may start).
 *
 * probes: the startup / liveness results (absent: no prober, a sidecar counts as started once it runs).
 */
export function computeInitContainerActions(pod: V1Pod, status: PodStatus, actions: PodActions, probes?: ContainerProbeResults): boolean {
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return true;
  let podHasInitialized = appContainerCreated(pod, status);
  // Walk backwards: completed init containers may have been removed, the newest one that left a status counts.
  let previouslyInitialized = podHasInitialized;
  const restartOnFailure = shouldRestartOnFailure(pod);
  const toStart: number[] = [];
  for (let i = inits.length - 1; i >= 0; i--) {
    const c = inits[i]!;
    const sidecar = isRestartableInitContainer(c);
    const cs = findContainerStatusByName(status, c.name);
    if (!cs) {
      // Initialized before, its status since removed: a sidecar must run again.
      if (previouslyInitialized && sidecar) toStart.push(i);
      continue;
    }
    // Once initialized, only sidecars are kept running.
    if (previouslyInitialized && !sidecar) continue;
    switch (cs.state) {
      case 'created':
        // Created but never started (the runtime likely failed to start it): removed, then started again.
        actions.containersToKill.push(notStartedRemoval(cs, c));
        toStart.push(i);
        break;
      case 'running': {
        if (!sidecar) break; // wait for it to finish
        if (c.startupProbe && probes?.startup) {
          const startup = probes.startup.get(cs.id.id);
          if (startup !== 'success') {
            if (startup === 'failure') {
              actions.containersToKill.push(probeKill(pod, c, cs, 'startup', `Init container ${c.name} failed startup probe`));
              toStart.push(i);
            }
            break; // not started yet: the next init container waits
          }
        }
        if (i === inits.length - 1) podHasInitialized = true;
        else if (!previouslyInitialized) toStart.push(i + 1);
        // The liveness probe does not hold back the next init container; a failure restarts the sidecar.
        if (c.livenessProbe && probes?.liveness?.get(cs.id.id) === 'failure') {
          actions.containersToKill.push(probeKill(pod, c, cs, 'liveness', `Init container ${c.name} failed liveness probe`));
          toStart.push(i);
        }
        break;
      }
      case 'exited':
        if (sidecar) {
          toStart.push(i);
          break;
        }
        if (isInitContainerFailed(cs)) {
          if (!restartOnFailure) return failPod(actions);
          toStart.push(i);
          break;
        }
        if (i === inits.length - 1) podHasInitialized = true;
        else toStart.push(i + 1);
        break;
      default: {
        // Unknown state: killed before it is restarted (a regular one fails the pod that does not restart).
        if (!sidecar && !restartOnFailure) return failPod(actions);
        const message = `Init container is in "${cs.state}" state, try killing it before restart`;
        actions.containersToKill.push({ id: cs.id, name: c.name, container: c, message, reason: 'UnknownState' });
        toStart.push(i);
      }
    }
    previouslyInitialized = true;
  }
  // No init container has started yet: the first one.
  if (!previouslyInitialized) toStart.push(0);
  actions.initContainersToStart.push(...toStart.reverse());
  return podHasInitialized;
}

function failPod(actions: PodActions): false {
  actions.killPod = true;
  actions.initContainersToStart = [];
  return false;
}
