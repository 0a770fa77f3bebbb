/**
 * The kubelet's /stats/summary JSON (k8s.io/kubelet/pkg/apis/stats/v1alpha1): field names as upstream's
 * json tags. Times are RFC 3339 strings.
 */
export interface Summary {
  node: NodeStats;
  pods: PodStats[];
}

export interface NodeStats {
  nodeName: string;
  systemContainers?: ContainerStats[];
  startTime: string;
  cpu?: CPUStats;
  memory?: MemoryStats;
  network?: NetworkStats;
  fs?: FsStats;
  runtime?: RuntimeStats;
  rlimit?: RlimitStats;
  swap?: SwapStats;
}

export interface RlimitStats {
  time: string;
  maxpid?: number;
  curproc?: number;
}

export interface RuntimeStats {
  imageFs?: FsStats;
  containerFs?: FsStats;
}

/** Names of the node's system containers. */
export type SystemContainerName = 'kubelet' | 'runtime' | 'misc' | 'pods';

export interface PodReference {
  name: string;
  namespace: string;
  uid: string;
}

export interface PodStats {
  podRef: PodReference;
  startTime: string;
  containers: ContainerStats[];
  cpu?: CPUStats;
  memory?: MemoryStats;
  network?: NetworkStats;
  volume?: VolumeStats[];
  'ephemeral-storage'?: FsStats;
  process_stats?: ProcessStats;
  swap?: SwapStats;
}

export interface ProcessStats {
  process_count?: number;
}

export interface ContainerStats {
  name: string;
  startTime: string;
  cpu?: CPUStats;
  memory?: MemoryStats;
  accelerators?: AcceleratorStats[];
  rootfs?: FsStats;
  logs?: FsStats;
  userDefinedMetrics?: unknown[];
  swap?: SwapStats;
}

export interface CPUStats {
  time: string;
  usageNanoCores?: number;
  usageCoreNanoSeconds?: number;
}

export interface MemoryStats {
  time: string;
  availableBytes?: number;
  usageBytes?: number;
  workingSetBytes?: number;
  rssBytes?: number;
  pageFaults?: number;
  majorPageFaults?: number;
}

export interface SwapStats {
  time: string;
  swapAvailableBytes?: number;
  swapUsageBytes?: number;
}

export interface InterfaceStats {
  name: string;
  rxBytes?: number;
  rxErrors?: number;
  txBytes?: number;
  txErrors?: number;
}

export interface NetworkStats extends InterfaceStats {
  time: string;
  interfaces?: InterfaceStats[];
}

export interface FsStats {
  time: string;
  availableBytes?: number;
  capacityBytes?: number;
  usedBytes?: number;
  inodesFree?: number;
  inodes?: number;
  inodesUsed?: number;
}

export interface VolumeStats extends FsStats {
  name: string;
  pvcRef?: { name: string; namespace: string };
}

export interface AcceleratorStats {
  make: string;
  model: string;
  id: string;
  memoryTotal: number;
  memoryUsed: number;
  dutyCycle: number;
}
