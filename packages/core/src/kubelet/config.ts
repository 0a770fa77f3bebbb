/** createKubelet's deps and config, with the kubelet's defaults. */
import type { CriClient } from '../cri/types.ts';
import type { EventBus } from '../events/types.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { BackoffConfig } from '../util/backoff.ts';
import type { RuntimeFs, RuntimeMetrics } from '../kuberuntime/types.ts';
import type { ManifestFs } from '../config/manifest-fs.ts';
import type { FetchLike } from '../config/http-source.ts';

export interface KubeletDeps {
  cri: CriClient;
  clock: Clock;
  logger: Logger;
  /** Creates pod log directories; without it the runtime must create them. */
  fs?: RuntimeFs;
  /** Shared event bus; one is created when absent. */
  bus?: EventBus;
  /** kubelet_runtime_operations_* seam. */
  metrics?: RuntimeMetrics;
  /** File system for the static pod source (tests). */
  manifestFs?: ManifestFs;
  /** fetch for the manifest URL source (tests). */
  fetch?: FetchLike;
}

export interface KubeletConfig {
  nodeName: string;
  podManifestPath?: string;
  manifestUrl?: string;
  manifestUrlHeaders?: Record<string, string>;
  /** Static pod dir rescan (20 s). */
  fileCheckFrequencyMs: number;
  /** Manifest URL poll (20 s). */
  httpCheckFrequencyMs: number;
  /** /var/log/pods. */
  podLogsDir: string;
  rootDir: string;
  maxPods: number;
  plegRelistPeriodMs: number;
  plegRelistThresholdMs: number;
  /** 10 s doubling to 300 s; shorten it in tests and conformance runs. */
  crashLoopBackOff: BackoffConfig;
  /** Image pull back-off (default 10 s → 300 s). */
  imagePullBackOff?: BackoffConfig;
  runtimeEndpoint: string;
  kubeletVersion: string;
  /** Resync of every pod (syncFrequency, 1 min). */
  syncFrequencyMs?: number;
  /** Housekeeping period (2 s). */
  housekeepingPeriodMs?: number;
  /** Sync tick (1 s). */
  syncTickMs?: number;
  /** Container GC (dead containers/sandboxes of pods no longer desired), 1 min. */
  containerGcPeriodMs?: number;
  /** Runtime readiness poll (5 s). */
  runtimeStatusPeriodMs?: number;
  /** Extra node labels for admission (kubernetes.io/hostname and kubernetes.io/os are always set). */
  nodeLabels?: Record<string, string>;
  /** Node allocatable for admission; unlimited when unknown. */
  allocatable?: { cpuMilli: number; memoryBytes: number };
  /** Put sandboxes under /kubepods[/<qos>]/pod<uid> (default true); false = the runtime's default cgroup. */
  cgroupsPerQOS?: boolean;
  /** Prefix for pod cgroups (default '/'). */
  cgroupRoot?: string;
}

export const DEFAULT_SYNC_FREQUENCY_MS = 60_000;
