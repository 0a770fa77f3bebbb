/**
 * The CPU manager's policies (kubelet cpumanager policy.go / policy_none.go v1.28): `none` leaves every
 * container on all CPUs (the OS scheduler decides; no cpuset is set); `static` is policy-static.ts.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { CPUSet } from '../topology/cpuset.ts';
import type { TopologyHints } from '../topologymanager/types.ts';
import type { CpuState } from './state.ts';

export const POLICY_NONE = 'none';
export const POLICY_STATIC = 'static';
export type CpuPolicyName = typeof POLICY_NONE | typeof POLICY_STATIC;

export interface CpuPolicy {
  readonly name: CpuPolicyName;
  /** Validates (and initialises) the restored state; throws the kubelet's error. */
  start(s: CpuState): void;
  /** The CPUs the container would get for itself (static: a Guaranteed pod's integer request), else 0. */
  guaranteedCPUs(pod: V1Pod, container: V1Container): number;
  /** Exclusive CPUs for the container when it qualifies; throws to refuse the pod. */
  allocate(s: CpuState, pod: V1Pod, container: V1Container): void;
  removeContainer(s: CpuState, podUid: string, containerName: string): void;
  getTopologyHints(s: CpuState, pod: V1Pod, container: V1Container): TopologyHints;
  getPodTopologyHints(s: CpuState, pod: V1Pod): TopologyHints;
  /** The CPUs exclusive allocations come from (none: empty). */
  getAllocatableCPUs(s: CpuState): CPUSet;
  /** The CPUs kept out of exclusive allocations (none: empty). */
  reservedCPUs(): CPUSet;
}

export class NonePolicy implements CpuPolicy {
  readonly name = POLICY_NONE;

  /** NewNonePolicy: no options are supported. */
  constructor(options: Record<string, string> = {}) {
    if (Object.keys(options).length > 0) throw new Error(`None policy: received unsupported options=${goMap(options)}`);
  }

  start(): void {}
  guaranteedCPUs(): number {
    return 0;
  }
  allocate(): void {}
  removeContainer(): void {}
  getTopologyHints(): TopologyHints {
    return null;
  }
  getPodTopologyHints(): TopologyHints {
    return null;
  }
  getAllocatableCPUs(): CPUSet {
    return CPUSet.of();
  }
  reservedCPUs(): CPUSet {
    return CPUSet.of();
  }
}

/** A Go map[string]string as %v prints it: map[a:b c:d]. */
export function goMap(m: Record<string, string>): string {
  return `map[${Object.keys(m).sort().map((k) => `${k}:${m[k]}`).join(' ')}]`;
}
