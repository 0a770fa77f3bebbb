/** @nodelet/core/stats: the stats sample and Summary API types, and the node's disk-usage reader. */
export { createNodeDiskUsage } from './disk-usage.ts';
export type { ContainerSample, CpuSample, InterfaceSample, MachineInfo, MemorySample } from './types.ts';
export type { FsStats, PodStats, Summary } from './summary-types.ts';
