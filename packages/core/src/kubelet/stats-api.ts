/**
 * The stats facade the agent serves (/stats/summary, /metrics*, the cAdvisor REST API, the console's stats
 * router and metrics stream). Built by the kubelet when it has a host file system (the agent); absent in fakes.
 */
import type { Summary, PodStats } from '../stats/summary-types.ts';
import type { ContainerSample, MachineInfo } from '../stats/types.ts';
import type { OomEvent } from '../oom/types.ts';

export type MetricsPath = 'kubelet' | 'cadvisor' | 'resource';

/** One tracked cgroup as the console and the cAdvisor API list it. */
export interface StatsContainer {
  /** Key for history/watch: the logical cgroup name ('/', '/kubepods/burstable/pod<uid>/<cid>'). */
  key: string;
  kind: 'node' | 'qos' | 'pod' | 'container' | 'system';
  /** Parent key ('/' for top-level ones; undefined for the node). */
  parent?: string;
  labels: { name?: string; image?: string; pod?: string; namespace?: string; container?: string };
  startTimeMs?: number;
  spec?: { cpuShares?: number; cpuQuota?: number; cpuPeriod?: number; memoryLimit?: number };
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  uid: number;
  /** The uid's name in the node's /etc/passwd, else the uid as text. */
  user: string;
  cmd: string;
  /** Logical cgroup (memory controller on v1). */
  cgroup: string;
  threads: number;
  rssBytes: number;
  virtualBytes: number;
  /** Cumulative user + system CPU time (/proc/<pid>/stat utime + stime); %CPU comes from two samples. */
  cpuNanoseconds: number;
  /** A kernel thread (PF_KTHREAD): no user space, hidden by default in the console. */
  kernelThread: boolean;
  startTimeMs?: number;
}

/** What the container manager reports about itself (console, logs). */
export interface CgroupStatus {
  driver: 'v1' | 'v2' | 'none';
  mode?: string;
  /** The QoS tree exists and pod cgroups are managed (root with writable cgroups). */
  qosTree: boolean;
  message?: string;
  allocatable?: { cpuMilli: number; memoryBytes: number; ephemeralStorageBytes: number; pods: number };
}

export interface StatsApi {
  summary(opts?: { onlyCpuAndMemory?: boolean }): Promise<Summary>;
  /** A pod's Summary entry (full, with filesystems). */
  podStats(namespace: string, name: string): Promise<PodStats | undefined>;
  metrics(path: MetricsPath): Promise<{ contentType: string; body: string }>;
  /** /metrics/cadvisor as bytes, gzipped when the client accepts it (kept until its data changes). */
  cadvisorPage?(opts: { gzip: boolean }): Promise<{ contentType: string; body: Buffer; contentEncoding?: 'gzip' }>;
  machineInfo(): MachineInfo | undefined;
  containers(): StatsContainer[];
  history(key: string, sinceMs?: number, limit?: number): ContainerSample[];
  /** Live samples of one key at the watch rate; reference-counted, the release function stops it. */
  watch(key: string, listener: (key: string, sample: ContainerSample) => void): () => void;
  /** Processes of a cgroup and its children ('/' = all). */
  processes(key?: string): Promise<ProcessInfo[]>;
  cgroups(): CgroupStatus;
  /** Recent OOM kills seen in the kernel log / memory.events (oldest first). */
  ooms(): OomEvent[];
  /** The OOM kill recorded for a container id, for runtimes that do not report reason OOMKilled. */
  oomKilled(containerId: string): OomEvent | undefined;
}
