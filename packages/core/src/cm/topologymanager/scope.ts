/**
 * The topology manager's scopes (scope.go, scope_container.go, scope_pod.go, scope_none.go v1.28): which hints
 * are merged (each container's, or the pod's as a whole), the merged hint kept per container (the Store), and
 * the providers' allocations run for each container once its hint is stored.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { Logger } from '../../util/logger.ts';
import type { PodAdmitResult } from '../../lifecycle/types.ts';
import { UnexpectedAdmissionError } from '../../lifecycle/predicate-admit.ts';
import { NonePolicy } from './policy.ts';
import {
  AdmissionError,
  SCOPE_CONTAINER,
  SCOPE_POD,
  TOPOLOGY_AFFINITY_ERROR,
  TOPOLOGY_AFFINITY_MESSAGE,
  formatHint,
  type HintProvider,
  type Policy,
  type TopologyHint,
  type TopologyHints,
} from './types.ts';

export type ScopeName = typeof SCOPE_CONTAINER | typeof SCOPE_POD | 'none';

/** cm/admission GetPodAdmitResult: an AdmissionError keeps its reason, anything else is unexpected. */
export function admitResultOf(err: unknown): PodAdmitResult {
  if (err === undefined) return { admit: true };
  if (err instanceof AdmissionError) return { admit: false, reason: err.reason, message: err.message };
  const msg = err instanceof Error ? err.message : String(err);
  return { admit: false, reason: UnexpectedAdmissionError, message: `Allocate failed due to ${msg}, which is unexpected` };
}

const NO_HINT: TopologyHint = { numaNodeAffinity: null, preferred: false };

function containersOf(pod: V1Pod): V1Container[] {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
}

export class Scope {
  private readonly hintProviders: HintProvider[] = [];
  /** pod uid → container name → merged hint. */
  private readonly podHints = new Map<string, Map<string, TopologyHint>>();
  /** container id → pod uid + container name (containermap.ContainerMap). */
  private readonly containers = new Map<string, { podUid: string; name: string }>();

  constructor(
    readonly name: ScopeName,
    readonly policy: Policy,
    private readonly logger: Logger,
  ) {}

  static none(logger: Logger): Scope {
    return new Scope('none', new NonePolicy(), logger);
  }

  addHintProvider(p: HintProvider): void {
    this.hintProviders.push(p);
  }

  getAffinity(podUid: string, containerName: string): TopologyHint {
    return this.podHints.get(podUid)?.get(containerName) ?? NO_HINT;
  }

  private setHint(podUid: string, containerName: string, hint: TopologyHint): void {
    let m = this.podHints.get(podUid);
    if (!m) this.podHints.set(podUid, (m = new Map()));
    m.set(containerName, hint);
  }

  addContainer(pod: V1Pod, container: V1Container, containerId: string): void {
    this.containers.set(containerId, { podUid: pod.metadata?.uid ?? '', name: container.name });
  }

  /** Forgets the container; its hint goes unless another id (a restart) still maps to the same container. */
  removeContainer(containerId: string): void {
    const ref = this.containers.get(containerId);
    if (!ref) return;
    this.containers.delete(containerId);
    if ([...this.containers.values()].some((r) => r.podUid === ref.podUid && r.name === ref.name)) return;
    const m = this.podHints.get(ref.podUid);
    m?.delete(ref.name);
    if (m && m.size === 0) this.podHints.delete(ref.podUid);
  }

  admit(pod: V1Pod): PodAdmitResult {
    if (this.name === 'none') return this.admitPolicyNone(pod);
    return this.name === SCOPE_POD ? this.admitPod(pod) : this.admitContainers(pod);
  }

  private admitPolicyNone(pod: V1Pod): PodAdmitResult {
    for (const c of containersOf(pod)) {
      const err = this.allocateAlignedResources(pod, c);
      if (err !== undefined) return admitResultOf(err);
    }
    return { admit: true };
  }

  private admitContainers(pod: V1Pod): PodAdmitResult {
    const uid = pod.metadata?.uid ?? '';
    for (const c of containersOf(pod)) {
      const { hint, admit } = this.policy.merge(this.hintProviders.map((p) => p.getTopologyHints(pod, c)));
      this.logger.info('Best TopologyHint', { bestHint: formatHint(hint), pod: podRef(pod), containerName: c.name });
      if (!admit) return { admit: false, reason: TOPOLOGY_AFFINITY_ERROR, message: TOPOLOGY_AFFINITY_MESSAGE };
      this.setHint(uid, c.name, hint);
      const err = this.allocateAlignedResources(pod, c);
      if (err !== undefined) return admitResultOf(err);
    }
    return { admit: true };
  }

  private admitPod(pod: V1Pod): PodAdmitResult {
    const uid = pod.metadata?.uid ?? '';
    const hints: TopologyHints[] = this.hintProviders.map((p) => p.getPodTopologyHints(pod));
    const { hint, admit } = this.policy.merge(hints);
    this.logger.info('Best TopologyHint', { bestHint: formatHint(hint), pod: podRef(pod) });
    if (!admit) return { admit: false, reason: TOPOLOGY_AFFINITY_ERROR, message: TOPOLOGY_AFFINITY_MESSAGE };
    for (const c of containersOf(pod)) {
      this.setHint(uid, c.name, hint);
      const err = this.allocateAlignedResources(pod, c);
      if (err !== undefined) return admitResultOf(err);
    }
    return { admit: true };
  }

  /** Each provider's Allocate in the order they were added; the first failure stops the pod. */
  private allocateAlignedResources(pod: V1Pod, c: V1Container): unknown {
    for (const p of this.hintProviders) {
      try {
        p.allocate(pod, c);
      } catch (err) {
        return err ?? new Error('allocation failed');
      }
    }
    return undefined;
  }
}

function podRef(pod: V1Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}
