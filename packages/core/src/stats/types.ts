/**
 * cAdvisor-style samples: what one housekeeping pass reads for a cgroup (cpu, memory, processes), a pod's
 * network namespace (/proc/<pid>/net/dev) and a filesystem (statfs). Counters are cumulative; times are
 * epoch milliseconds from the injected Clock.
 */
import type { CgroupName } from '../cm/types.ts';
import type { FileBytes } from './stat-files.ts';

export interface CpuSample {
  /** Cumulative CPU time, ns (cpuacct.usage / cpu.stat usage_usec). */
  usageNanoseconds: number;
  userNanoseconds: number;
  systemNanoseconds: number;
  /** CFS enforcement periods elapsed / throttled, and total throttled time (ns). */
  periods: number;
  throttledPeriods: number;
  throttledNanoseconds: number;
  /**
   * Cumulative CPU time per core, ns: cpuacct.usage_percpu on v1; for the node on v2 the busy time of
   * /proc/stat's cpuN lines. Absent for containers on v2 (no per-CPU accounting in cgroupfs), see perCpuUnavailable.
   */
  perCpuNanoseconds?: number[];
  /** Why perCpuNanoseconds is absent (reason 'PerCpuUnavailable'). */
  perCpuUnavailable?: { reason: string; message: string };
}

export interface MemorySample {
  usageBytes: number;
  /** usage − inactive_file, floored at 0 (what the kubelet evicts on). */
  workingSetBytes: number;
  rssBytes: number;
  cacheBytes: number;
  mappedFileBytes: number;
  swapBytes: number;
  maxUsageBytes: number;
  /** v1 memory.failcnt; v2 memory.events "max". */
  failcnt: number;
  /** v2 memory.events oom (v1: same as oomKills). */
  oomEvents: number;
  /** v1 memory.oom_control oom_kill; v2 memory.events oom_kill. */
  oomKills: number;
  pageFaults: number;
  majorPageFaults: number;
  /** -1 = unlimited. */
  limitBytes: number;
}

export interface ProcessSample {
  processes: number;
  threads: number;
}

export interface InterfaceSample {
  name: string;
  rxBytes: number;
  rxPackets: number;
  rxErrors: number;
  rxDropped: number;
  txBytes: number;
  txPackets: number;
  txErrors: number;
  txDropped: number;
}

export interface FsSample {
  capacityBytes: number;
  availableBytes: number;
  usedBytes: number;
  inodes: number;
  inodesFree: number;
  inodesUsed: number;
}

/** One housekeeping sample of a tracked container (a cgroup, optionally its pod's network namespace). */
export interface ContainerSample {
  time: number;
  cpu?: CpuSample;
  memory?: MemorySample;
  processes?: ProcessSample;
  network?: InterfaceSample[];
}

/** What a sample reads from a cgroup's own files; a controller or file absent leaves its field out. */
export interface CgroupStats {
  cpu?: CpuSample;
  memory?: MemorySample;
  processes?: ProcessSample;
}

/** Reads cgroup statistics for a logical cgroup name; absent controllers/files leave fields out. */
export interface CgroupStatsReader {
  readonly driver: 'v1' | 'v2';
  /** cpu, memory and (withProcesses) the process counts of a cgroup, from its files in one pass (stat-files.ts). */
  read(f: FileBytes, name: CgroupName, withProcesses: boolean): CgroupStats;
  /** Pids of the cgroup and its descendants, first ones first; at most `limit` (the walk stops there). */
  pids(name: CgroupName, limit?: number): Promise<number[]>;
}

/** What the housekeeper samples: a cgroup and, for pods, where to read network counters. */
export interface TrackedContainer {
  /** Stable key: the logical cgroup name ('/kubepods/burstable/pod<uid>/<cid>', '/' for the node). */
  key: string;
  cgroup: CgroupName;
  /** Read network counters from a process of this cgroup (pod sandboxes). */
  network?: boolean;
  /** Labels for /metrics/cadvisor (id is the cgroup) and the console. */
  labels?: { name?: string; image?: string; pod?: string; namespace?: string; container?: string };
  startTimeMs?: number;
  /** Resources as configured (container_spec_*). */
  spec?: { cpuShares?: number; cpuQuota?: number; cpuPeriod?: number; memoryLimit?: number };
}

export interface NetworkInterfaceInfo {
  name: string;
  macAddress: string;
  mtu: number;
  speedMbps: number;
}

export interface FilesystemInfo {
  device: string;
  mountPoint: string;
  type: string;
  capacityBytes: number;
  inodes: number;
}

export interface MachineInfo {
  numCores: number;
  numPhysicalCores: number;
  numSockets: number;
  cpuFrequencyKhz: number;
  memoryCapacityBytes: number;
  swapCapacityBytes: number;
  machineId: string;
  systemUuid: string;
  bootId: string;
  kernelVersion: string;
  osImage: string;
  interfaces: NetworkInterfaceInfo[];
  filesystems: FilesystemInfo[];
}

/** Bytes and inodes used under a directory (du), for container logs, rootfs and volumes. */
export type DiskUsage = (path: string) => Promise<{ bytes: number; inodes: number } | undefined>;
