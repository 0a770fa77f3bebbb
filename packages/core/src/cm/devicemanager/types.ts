/** The device manager's names and shapes (kubelet pkg/kubelet/cm/devicemanager, deviceplugin v1beta1 constants). */
import type { ContainerAllocateResponse__Output } from '../../../../../proto/deviceplugin/gen/v1beta1/ContainerAllocateResponse.ts';
import type { DevicePluginOptions__Output } from '../../../../../proto/deviceplugin/gen/v1beta1/DevicePluginOptions.ts';

/** api.SupportedVersions. */
export const SUPPORTED_VERSIONS = ['v1beta1'] as const;
/** `<root-dir>/device-plugins` (DevicePluginPath) and the kubelet's socket in it (KubeletSocket). */
export const DEVICE_PLUGINS_DIR = 'device-plugins';
export const KUBELET_SOCKET = 'kubelet.sock';
/** The allocation checkpoint in the device plugin dir (kubeletDeviceManagerCheckpoint). */
export const CHECKPOINT_FILE = 'kubelet_internal_checkpoint';
export const HEALTHY = 'Healthy';
export const UNHEALTHY = 'Unhealthy';
/** endpointStopGracePeriod: a disconnected plugin's resource stays (unhealthy) this long, then goes. */
export const ENDPOINT_STOP_GRACE_MS = 5 * 60_000;
/** nodeWithoutTopology: the NUMA key of devices that report no topology. */
export const NODE_WITHOUT_TOPOLOGY = -1;

export type AllocResponse = ContainerAllocateResponse__Output;
export type PluginOptions = DevicePluginOptions__Output;

export interface PluginDevice {
  id: string;
  healthy: boolean;
  /** NUMA node ids from the device's topology (empty: none reported). */
  numaNodes: number[];
}

/** One container's devices of one resource, as the checkpoint holds them. */
export interface ContainerDevices {
  podUid: string;
  containerName: string;
  resource: string;
  /** NUMA node (-1: no topology) → device ids. */
  deviceIds: Record<string, string[]>;
  /** Absent while reserved at admission and not yet allocated by the plugin. */
  response?: AllocResponse;
}

/** The plugin side the manager drives (endpoint.ts over gRPC; fakes in unit tests). */
export interface PluginEndpoint {
  readonly resource: string;
  /** The plugin's socket (its removal disconnects the plugin). */
  readonly socket: string;
  readonly options: PluginOptions;
  allocate(deviceIds: string[]): Promise<AllocResponse[]>;
  preStartContainer(deviceIds: string[]): Promise<void>;
  getPreferredAllocation(available: string[], mustInclude: string[], size: number): Promise<string[]>;
  close(): void;
}

/** What a container gets from its allocations (the kubelet's DeviceRunContainerOptions). */
export interface DeviceRunOptions {
  envs: Array<{ key: string; value: string }>;
  mounts: Array<{ containerPath: string; hostPath: string; readonly: boolean }>;
  devices: Array<{ containerPath: string; hostPath: string; permissions: string }>;
  annotations: Record<string, string>;
  cdiDevices: string[];
}
