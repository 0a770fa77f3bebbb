/** @nodelet/core/stats: the stats sample and Summary API types, and the node's disk-usage reader. */
export { createNodeDiskUsage } from './disk-usage.ts';
export type { ContainerSample, CpuSample, InterfaceSample, MachineInfo, MemorySample } from './types.ts';
export type { FsStats, PodStats, Summary } from './summary-types.ts';
// The housekeeping's parts for bench/housekeeping-cost.ts (its cost in-process on real cgroups).
export { Housekeeper } from './housekeeper.ts';
export { createCgroupSampler } from './sampler.ts';
export { createCgroupStatsReader } from './cgroup-stats.ts';
export { detectCgroupLayout } from '../cm/mountinfo.ts';
export type { TrackedContainer } from './types.ts';
