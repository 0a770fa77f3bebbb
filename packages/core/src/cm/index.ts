/**
 * @nodelet/core/cm: the container manager's view of the host (cgroup and mount files), the device plugin stub that
 * plugins build on, and the resource managers' view of CPUs, memory and devices.
 */
export { createNodeHostFs } from './node-host-fs.ts';
export { CPUSet } from './topology/cpuset.ts';
export { type CpuManagerSettings, DEFAULT_CPU_MANAGER_RECONCILE_PERIOD_MS } from './cpumanager/cpu-manager-factory.ts';
export { DevicePluginStub, type DevicePluginStubOptions, type StubDevice, type RegisterOptions, type KubeletWatchHandlers } from './devicemanager/plugin-stub.ts';
export { nodeResourcesView, type ContainerRef, type CpuResourcesView, type DeviceResourceView, type DeviceView, type MemoryResourcesView, type NodeResourcesApi, type NodeResourcesView, type NumaMemoryView } from './resources-view.ts';
