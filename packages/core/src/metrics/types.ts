/** What the pull-based /metrics/cadvisor collectors read at scrape time. */
import type { ContainerSample, MachineInfo } from '../stats/types.ts';

export interface CadvisorContainerInfo {
  /** The cgroup name ('/kubepods/burstable/pod<uid>/<cid>'). */
  id: string;
  name?: string;
  image?: string;
  pod?: string;
  namespace?: string;
  container?: string;
  sample?: ContainerSample;
  spec?: { cpuShares?: number; cpuQuota?: number; cpuPeriod?: number; memoryLimit?: number; startTimeMs?: number };
  fs?: { device: string; usageBytes: number; limitBytes: number; inodesFree: number; inodes: number }[];
}

export interface CadvisorSource {
  containers(): CadvisorContainerInfo[];
  machine(): MachineInfo | undefined;
  version?(): { kernelVersion: string; osVersion: string; cadvisorVersion: string; cadvisorRevision: string; dockerVersion: string };
}
