/** What the node status setters read: facts about the machine, the runtime and the kubelet's health. */

export interface MachineFacts {
  cpuCores: number;
  memoryBytes: number;
  /** Capacity of the file system holding the kubelet root dir. */
  ephemeralStorageBytes: number;
  /** hugepages-<size> resource name → bytes (e.g. hugepages-2Mi → 0). */
  hugepages: Record<string, number>;
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
}

export interface NodeImage {
  names: string[];
  sizeBytes: number;
}

export interface NodeStatusInput {
  nodeName: string;
  hostname: string;
  /** --node-ip; else the first non-internal IPv4 address. */
  nodeIP?: string;
  kubeletPort: number;
  kubeletVersion: string;
  maxPods: number;
  machine: MachineFacts;
  /** From CRI Version: runtimeName and runtimeVersion. */
  runtime?: { name: string; version: string };
  /** Runtime up, PLEG healthy...: errors make the node NotReady. */
  readiness: { ready: boolean; message: string };
  pressure: { memory: boolean; disk: boolean; pid: boolean };
  images: NodeImage[];
  /** Hard eviction thresholds subtracted from capacity (memory.available 100Mi, nodefs.available 10%). */
  evictionHard?: { memoryBytes: number; nodefsFraction: number };
  os?: string;
  arch?: string;
  /** Device plugin resources (the device manager's GetCapacity); removed ones are reported as 0. */
  devicePlugins?: { capacity: Record<string, number>; allocatable: Record<string, number>; removed: string[] };
}

/** A node event the kubelet records when a condition is first set or changes. */
export interface NodeEventNote {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export const NODE_STATUS_MAX_IMAGES = 50;
