/**
 * The topology manager's names and shapes (kubelet pkg/kubelet/cm/topologymanager v1.28: topology_manager.go,
 * policy.go, scope.go). The CPU, memory and device managers are hint providers under these interfaces; the
 * topology manager merges their hints at admission and keeps the winning hint per container (the Store).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { BitMask } from './bitmask.ts';

export { BitMask, and, or, iterateBitMasks } from './bitmask.ts';

/** `topologyManagerPolicy` values (policy_*.go Policy* names). */
export const POLICY_NONE = 'none';
export const POLICY_BEST_EFFORT = 'best-effort';
export const POLICY_RESTRICTED = 'restricted';
export const POLICY_SINGLE_NUMA_NODE = 'single-numa-node';
export type TopologyPolicyName = typeof POLICY_NONE | typeof POLICY_BEST_EFFORT | typeof POLICY_RESTRICTED | typeof POLICY_SINGLE_NUMA_NODE;
export const TOPOLOGY_POLICIES: readonly TopologyPolicyName[] = [POLICY_NONE, POLICY_BEST_EFFORT, POLICY_RESTRICTED, POLICY_SINGLE_NUMA_NODE];

/** `topologyManagerScope` values (scope.go containerTopologyScope / podTopologyScope). */
export const SCOPE_CONTAINER = 'container';
export const SCOPE_POD = 'pod';
export type TopologyScopeName = typeof SCOPE_CONTAINER | typeof SCOPE_POD;

/** `topologyManagerPolicyOptions` known in v1.28 (policy_options.go; beta, its gate on by default). */
export const PREFER_CLOSEST_NUMA_NODES = 'prefer-closest-numa-nodes';

/** maxAllowableNUMANodes: more NUMA nodes and a policy other than none → the manager refuses to start. */
export const MAX_ALLOWABLE_NUMA_NODES = 8;

/** ErrorTopologyAffinity and TopologyAffinityError.Error(): the admission reason and message. */
export const TOPOLOGY_AFFINITY_ERROR = 'TopologyAffinityError';
export const TOPOLOGY_AFFINITY_MESSAGE = 'Resources cannot be allocated with Topology locality';

/**
 * TopologyHint: the NUMA nodes a (hypothetical) allocation uses and whether it is a preferred one.
 * `numaNodeAffinity: null` is Go's nil mask: "no preference" (any NUMA node will do).
 */
export interface TopologyHint {
  numaNodeAffinity: BitMask | null;
  preferred: boolean;
}

/**
 * A provider's hints per resource name. As in Go, a resource whose value is `null` has no NUMA preference
 * (treated as {null, preferred}); an empty array means no NUMA affinity can satisfy it (treated as
 * {null, not preferred}); an empty object (or `null`) means the provider has no preference for any resource.
 */
export type TopologyHints = Record<string, TopologyHint[] | null> | null;

/**
 * HintProvider: a manager whose allocations the topology manager aligns (CPU, memory, devices).
 * `allocate` runs after the merged hint is in the Store (GetAffinity); it throws to refuse the pod — an
 * `AdmissionError` keeps its reason, any other error becomes UnexpectedAdmissionError
 * ("Allocate failed due to <message>, which is unexpected"), as cm/admission GetPodAdmitResult.
 */
export interface HintProvider {
  getTopologyHints(pod: V1Pod, container: V1Container): TopologyHints;
  getPodTopologyHints(pod: V1Pod): TopologyHints;
  allocate(pod: V1Pod, container: V1Container): void;
}

/** Policy: merges the providers' hints into one, and says whether the pod may be admitted with it. */
export interface Policy {
  readonly name: TopologyPolicyName;
  merge(providersHints: readonly TopologyHints[]): { hint: TopologyHint; admit: boolean };
}

/** Store: what hint providers ask the topology manager at allocation time. */
export interface Store {
  /** The merged hint of the container; {null, false} when none is kept. */
  getAffinity(podUid: string, containerName: string): TopologyHint;
  getPolicy(): Policy;
}

/** cm/admission Error: an allocation failure with its own admission reason (its Type()). */
export class AdmissionError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'AdmissionError';
  }
}

/** TopologyHint.IsEqual: same preference and the same mask (both null counts as equal). */
export function hintIsEqual(a: TopologyHint, b: TopologyHint): boolean {
  if (a.preferred !== b.preferred) return false;
  if (a.numaNodeAffinity === null || b.numaNodeAffinity === null) return a.numaNodeAffinity === b.numaNodeAffinity;
  return a.numaNodeAffinity.isEqual(b.numaNodeAffinity);
}

/** TopologyHint.LessThan: a preferred hint before a non-preferred one, else the narrower mask. */
export function hintLessThan(a: TopologyHint, b: TopologyHint): boolean {
  if (a.preferred !== b.preferred) return a.preferred;
  if (a.numaNodeAffinity === null || b.numaNodeAffinity === null) return false;
  return a.numaNodeAffinity.isNarrowerThan(b.numaNodeAffinity);
}

/** The hint as the kubelet logs it ({01 true}, {<nil> false}). */
export function formatHint(h: TopologyHint): string {
  return `{${h.numaNodeAffinity === null ? '<nil>' : h.numaNodeAffinity.toString()} ${h.preferred}}`;
}
