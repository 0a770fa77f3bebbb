/** KubeletConfig.stats: the container manager, housekeeping and OOM watcher knobs (kubelet config names). */
import type { ResourceList } from '../cm/types.ts';

export interface NodeStatsOptions {
  kubeReserved?: ResourceList;
  systemReserved?: ResourceList;
  /** evictionHard (default memory.available<100Mi, nodefs.available<10%, imagefs.available<15%, nodefs.inodesFree<5%). */
  evictionHard?: Record<string, string>;
  /** enforceNodeAllocatable (default ['pods']). */
  enforceNodeAllocatable?: string[];
  /** cpuCFSQuota (default true). */
  cpuCFSQuota?: boolean;
  /** cpuCFSQuotaPeriod in µs (default 100000). */
  cpuCFSQuotaPeriodUs?: number;
  /** podPidsLimit (default -1). */
  podPidsLimit?: number;
  /** Housekeeping interval (10 s) and its dynamic maximum (15 s). */
  housekeepingIntervalMs?: number;
  maxHousekeepingIntervalMs?: number;
  /** cAdvisor's housekeeping jitter maxFactor (1.0: each wait a random 0–100 % longer); 0 = exact intervals. */
  housekeepingJitterFactor?: number;
  /** volumeStatsAggPeriod: disk usage (du) of logs, writable layers and volumes (1 min). */
  volumeStatsAggPeriodMs?: number;
  /** Rate of samples for watched containers (1 s). */
  watchIntervalMs?: number;
  /** The runtime's image store for imagefs (default rootDir). */
  imageFsPath?: string;
  /** Watch /dev/kmsg for OOM kills (default true). */
  oomWatcher?: boolean;
}

export const DEFAULT_EVICTION_HARD: Record<string, string> = {
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'imagefs.available': '15%',
  'nodefs.inodesFree': '5%',
};
