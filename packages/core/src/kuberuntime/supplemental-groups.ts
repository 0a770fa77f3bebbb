import type { V1PodSecurityContext } from '@kubernetes/client-node';

/**
 * The CRI supplementalGroups of a pod's sandbox and containers, as kuberuntime's determineEffectiveSecurityContext
 * and generatePodSandboxLinuxConfig build them: the pod's `fsGroup` first, then its `supplementalGroups`
 * (so a non-root container can use the volumes the fsGroup ownership gave to that group).
 */
export function podSupplementalGroups(psc: V1PodSecurityContext | undefined): number[] | undefined {
  const groups = [...(psc?.fsGroup !== undefined && psc.fsGroup !== null ? [psc.fsGroup] : []), ...(psc?.supplementalGroups ?? [])];
  return groups.length > 0 ? groups : undefined;
}
