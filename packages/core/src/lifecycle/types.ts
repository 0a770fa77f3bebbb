/** Pod admission, as the kubelet's lifecycle admit handlers. */
import type { V1Pod } from '@kubernetes/client-node';

/** `preempt`: active pods the kubelet kills (Failed / Preempting) to make room for an admitted critical pod. */
export type PodAdmitResult = { admit: true; preempt?: V1Pod[] } | { admit: false; reason: string; message: string };

/** What admission needs to know about the node. Quantities already parsed. */
export interface AdmitNode {
  name: string;
  labels: Record<string, string>;
  /** Allocatable: cpu in millicores, memory in bytes, pods as a count (maxPods, default 110). */
  allocatable: { cpuMilli: number; memoryBytes: number; pods: number; [extended: string]: number };
  /** Node conditions under pressure (MemoryPressure, DiskPressure, PIDPressure) that are True. */
  pressure?: Array<'MemoryPressure' | 'DiskPressure' | 'PIDPressure'>;
  taints?: Array<{ key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }>;
}

export interface PodAdmitAttributes {
  pod: V1Pod;
  /** Pods already admitted and active on the node (excluding `pod`). */
  otherPods: V1Pod[];
  node: AdmitNode;
}

export interface PodAdmitHandler {
  readonly name: string;
  admit(attrs: PodAdmitAttributes): PodAdmitResult;
}

/** admit(pod, activePods, node): runs every handler in order; the first rejection wins. */
export type Admitter = (pod: V1Pod, activePods: V1Pod[], node: AdmitNode) => PodAdmitResult;
