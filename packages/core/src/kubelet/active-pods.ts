/**
 * The kubelet's active pods (kubelet_pods.go filterOutInactivePods / GetActivePods): the pods admission counts
 * against the node, eviction ranks, the QoS cgroups size and kubelet_active_pods counts. One rule, asked of the
 * pod workers: a pod whose worker finished terminating it is inactive; a pod in a terminal phase (by its config
 * or by the kubelet's own status, e.g. rejected at admission) is inactive unless it is still being terminated.
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { isTerminalPhase } from '../status/brief.ts';
import type { PodStateProvider } from './pod-state-provider.ts';

/** What the rule asks of the pod workers (isPodKnownTerminated: the worker finished terminating the pod). */
export type ActivePodState = Pick<PodStateProvider, 'isPodTerminationRequested'> & { isPodKnownTerminated(uid: string): boolean };

export interface ActivePodsDeps {
  podManager: { getPods(): V1Pod[]; getPodByUid(uid: string): V1Pod | undefined };
  podState: () => ActivePodState;
  /** The kubelet's own status of the pod (status manager). */
  podStatus: (uid: string) => V1PodStatus | undefined;
}

export class ActivePods {
  constructor(private readonly deps: ActivePodsDeps) {}

  /** The pod manager's pods that are active. */
  list(): V1Pod[] {
    return this.deps.podManager.getPods().filter((p) => this.isActive(p));
  }

  has(uid: string): boolean {
    const p = this.deps.podManager.getPodByUid(uid);
    return p !== undefined && this.isActive(p);
  }

  isActive(pod: V1Pod): boolean {
    const uid = pod.metadata?.uid ?? '';
    const state = this.deps.podState();
    if (state.isPodKnownTerminated(uid)) return false;
    const terminal = isTerminalPhase(pod.status?.phase) || isTerminalPhase(this.deps.podStatus(uid)?.phase);
    return !terminal || state.isPodTerminationRequested(uid);
  }
}
