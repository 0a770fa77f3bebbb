/**
 * The pod resources API's providers (pkg/kubelet/apis/podresources/types.go, v1.28) and the v1 message shapes
 * (camelCase, as the proto loader gives them). The device manager provides devices now; the CPU and memory
 * managers implement CPUsProvider / MemoryProvider (empty until they do).
 */
import type { V1Pod } from '@kubernetes/client-node';

/** `<root-dir>/pod-resources` (kubelet's getPodResourcesDir, created 0750) and the socket in it. */
export const POD_RESOURCES_DIR = 'pod-resources';
export const POD_RESOURCES_SOCKET = 'kubelet.sock';

/** podresourcesgrpc.DefaultQPS / DefaultBurstTokens. */
export const DEFAULT_QPS = 100;
export const DEFAULT_BURST = 10;

export interface TopologyInfo {
  nodes: Array<{ ID: number }>;
}

export interface ContainerDevices {
  resourceName: string;
  deviceIds: string[];
  /** Absent when the plugin reported no NUMA node for the device. */
  topology?: TopologyInfo;
}

export interface ContainerMemory {
  /** "memory" or "hugepages-<size>". */
  memoryType: string;
  size: number;
  topology?: TopologyInfo;
}

export interface ContainerResources {
  name: string;
  devices: ContainerDevices[];
  cpuIds: number[];
  memory: ContainerMemory[];
  dynamicResources: never[];
}

export interface PodResources {
  name: string;
  namespace: string;
  containers: ContainerResources[];
}

export interface AllocatableResources {
  devices: ContainerDevices[];
  cpuIds: number[];
  memory: ContainerMemory[];
}

/** PodsProvider: the pod manager's pods. */
export interface PodsProvider {
  getPods(): V1Pod[];
  getPodByName(namespace: string, name: string): V1Pod | undefined;
}

export interface DevicesProvider {
  /** Frees the devices of pods that are no longer active, before a List. */
  updateAllocatedDevices(): void;
  getDevices(podUid: string, containerName: string): ContainerDevices[];
  /** Healthy devices of every registered resource. */
  getAllocatableDevices(): ContainerDevices[];
}

export interface CPUsProvider {
  /** The container's exclusive CPUs (static policy). */
  getCPUs(podUid: string, containerName: string): number[];
  /** The CPUs the static policy may hand out (none under the none policy). */
  getAllocatableCPUs(): number[];
}

export interface MemoryProvider {
  getMemory(podUid: string, containerName: string): ContainerMemory[];
  getAllocatableMemory(): ContainerMemory[];
}

export interface PodResourcesProviders {
  pods: PodsProvider;
  devices: DevicesProvider;
  cpus: CPUsProvider;
  memory: MemoryProvider;
}

export const NO_DEVICES: DevicesProvider = { updateAllocatedDevices: () => undefined, getDevices: () => [], getAllocatableDevices: () => [] };
export const NO_CPUS: CPUsProvider = { getCPUs: () => [], getAllocatableCPUs: () => [] };
export const NO_MEMORY: MemoryProvider = { getMemory: () => [], getAllocatableMemory: () => [] };

/** The kubelet_pod_resources_endpoint_* counters (label server_api_version). */
export interface PodResourcesMetrics {
  podResourcesEndpointRequestsTotal: { inc(labels: { server_api_version: string }): void };
  podResourcesEndpointRequestsList: { inc(labels: { server_api_version: string }): void };
  podResourcesEndpointRequestsGetAllocatable: { inc(labels: { server_api_version: string }): void };
  podResourcesEndpointRequestsGet: { inc(labels: { server_api_version: string }): void };
  podResourcesEndpointErrorsList: { inc(labels: { server_api_version: string }): void };
  podResourcesEndpointErrorsGetAllocatable: { inc(labels: { server_api_version: string }): void };
  podResourcesEndpointErrorsGet: { inc(labels: { server_api_version: string }): void };
}
