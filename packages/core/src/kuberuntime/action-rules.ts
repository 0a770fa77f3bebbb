/**
 * The restart and kill rules computePodActions (pod-actions.ts) and computeInitContainerActions (init-actions.ts)
 * share: the pod's restart policy, when an init container failed, a failed liveness/startup probe and the
 * ContainerToKill entries they lead to.
 */
import type { V1Container, V1Pod, V1Probe } from '@kubernetes/client-node';
import type { ContainerStatus } from '../container/types.ts';
import type { ContainerProbeResults, ContainerToKill } from './types.ts';

export function restartPolicyOf(pod: V1Pod): 'Always' | 'OnFailure' | 'Never' {
  const p = pod.spec?.restartPolicy;
  return p === 'OnFailure' || p === 'Never' ? p : 'Always';
}

export function shouldRestartOnFailure(pod: V1Pod): boolean {
  return restartPolicyOf(pod) !== 'Never';
}

export function isInitContainerFailed(s: ContainerStatus): boolean {
  if (s.reason === 'OOMKilled') return true;
  if (s.state === 'exited' && s.exitCode !== 0) return true;
  return s.state === 'unknown';
}

/**
 * The grace period of a liveness/startup kill (kuberuntime setTerminationGracePeriod): the pod's deletion grace
 * first, then the probe's terminationGracePeriodSeconds, then the pod's, else 30.
 */
export function probeKillGracePeriod(pod: V1Pod, probe: V1Probe | undefined): number {
  return pod.metadata?.deletionGracePeriodSeconds ?? probe?.terminationGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
}

export function failedProbe(cs: ContainerStatus, probes: ContainerProbeResults | undefined): 'liveness' | 'startup' | undefined {
  if (probes?.liveness?.get(cs.id.id) === 'failure') return 'liveness';
  if (probes?.startup?.get(cs.id.id) === 'failure') return 'startup';
  return undefined;
}

export function probeKill(pod: V1Pod, c: V1Container, cs: ContainerStatus, failed: 'liveness' | 'startup', message: string): ContainerToKill {
  const probe = failed === 'liveness' ? c.livenessProbe : c.startupProbe;
  const reason = failed === 'liveness' ? 'LivenessProbe' : 'StartupProbe';
  return { id: cs.id, name: c.name, container: c, message, reason, gracePeriodS: probeKillGracePeriod(pod, probe) };
}

/** The newest instance was created but never started: removed before the next attempt is created. */
export function notStartedRemoval(cs: ContainerStatus, c: V1Container | undefined): ContainerToKill {
  const message = `Container ${cs.name} was created but never started, removing it before restart`;
  return { id: cs.id, name: cs.name, ...(c ? { container: c } : {}), message, reason: 'NotStarted', remove: true };
}
