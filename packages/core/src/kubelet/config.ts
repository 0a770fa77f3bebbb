/** createKubelet's deps and config, with the kubelet's defaults. */
import type { CriClient } from '../cri/types.ts';
import type { EventBus } from '../events/types.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { BackoffConfig } from '../util/backoff.ts';
import type { RuntimeFs, RuntimeMetrics } from '../kuberuntime/types.ts';
import type { TerminationMessageFs } from '../kuberuntime/termination-message.ts';
import type { ManifestFs } from '../config/manifest-fs.ts';
import type { FetchLike } from '../config/http-source.ts';
import type { ProbeManagerConfig } from '../prober/manager.ts';
import type { PlegMetrics } from '../pleg/types.ts';
import type { EventSourceDetection } from '../cri/runtime-events.ts';
import type { HostFs } from '../cm/types.ts';
import type { MachineInfo } from '../cm/topology/machine-info.ts';
import type { CpuManagerSettings } from '../cm/cpumanager/cpu-manager-factory.ts';
import type { DiskUsage } from '../stats/types.ts';
import type { NodeStatsOptions } from './stats-options.ts';
import type { ApiClient } from '../apiclient/types.ts';
import type { EvictionWiringConfig } from './eviction-wiring.ts';
import type { LogRotatePolicy, LogRotationFs } from '../kuberuntime/logs/log-rotation.ts';
import type { ShutdownInhibitor } from './node-shutdown.ts';
import type { ShutdownGracePeriodByPodPriority } from './node-shutdown-groups.ts';
import type { MemoryManagerSettings, TopologyManagerSettings } from './resource-manager-settings.ts';

/** API-server mode settings (apiserver-wiring.ts). */
export interface ApiServerConfig {
  /** --register-node (default true). */
  registerNode: boolean;
  /** --node-ip. */
  nodeIP?: string;
  /** --node-labels. */
  nodeLabels?: Record<string, string>;
  /** The kubelet port advertised in status.daemonEndpoints. */
  kubeletPort: number;
  nodeStatusUpdateFrequencyMs?: number;
  nodeStatusReportFrequencyMs?: number;
  nodeLeaseDurationSeconds?: number;
  /** Status syncer and mirror pod resync (10 s). */
  resyncMs?: number;
}

export interface KubeletDeps {
  /** API server client (--kubeconfig): with config.apiServer, the kubelet joins the cluster as a node. */
  apiClient?: ApiClient;
  cri: CriClient;
  clock: Clock;
  logger: Logger;
  /** Creates pod log directories; without it the runtime must create them. */
  fs?: RuntimeFs;
  /** Termination message files under config.rootDir (kubelet/termination-message-fs.ts); none when absent. */
  terminationMessages?: TerminationMessageFs;
  /** Shared event bus; one is created when absent. */
  bus?: EventBus;
  /** kubelet_runtime_operations_* seam. */
  metrics?: RuntimeMetrics;
  /** File system for the static pod source (tests). */
  manifestFs?: ManifestFs;
  /** fetch for the manifest URL source (tests). */
  fetch?: FetchLike;
  /** kubelet_pleg_* / kubelet_evented_pleg_* handles (createKubeletMetrics(registry) satisfies it). */
  plegMetrics?: PlegMetrics;
  /** Event source for the evented PLEG; default detectEventSource(cri, runtimeEndpoint). */
  detectEventSource?: (signal: AbortSignal) => Promise<EventSourceDetection>;
  /** Host file system (createNodeHostFs()): turns on the container manager, stats, kubelet_* metrics and the OOM watcher. */
  hostFs?: HostFs;
  /** du for the Summary's logs/rootfs/volumes (createNodeDiskUsage()). */
  du?: DiskUsage;
  /** Reads the host files the kubelet consults (registry credential files, --resolv-conf); without it neither is read. */
  readHostFile?: (file: string) => Promise<string>;
  /** Files for container log rotation (default: the real file system). */
  logRotationFs?: LogRotationFs;
  /** systemd-logind's delay lock and PrepareForShutdown (graceful node shutdown); none: shutdownNow() only. */
  shutdownInhibitor?: ShutdownInhibitor;
  /** The machine topology for the resource managers (default: read from /sys; tests pass fake machines). */
  machineInfo?: () => MachineInfo;
}

export interface KubeletConfig {
  nodeName: string;
  /** API-server mode settings (used with deps.apiClient). */
  apiServer?: ApiServerConfig;
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
  /**
   * Evented PLEG (default false here; the agent turns it on): react to runtime events (CRI GetContainerEvents,
   * or containerd's event service), relisting every 300 s (10 min threshold) while the stream is up and every
   * plegRelistPeriodMs while it is down.
   */
  eventedPleg?: boolean;
  /** 10 s doubling to 300 s; shorten it in tests and conformance runs. */
  crashLoopBackOff: BackoffConfig;
  /** Image pull back-off (default 10 s → 300 s). */
  imagePullBackOff?: BackoffConfig;
  /** One pull at a time (default true unless maxParallelImagePulls ≥ 2). */
  serializeImagePulls?: boolean;
  /** Parallel pulls when not serialized (0/unset = no limit). */
  maxParallelImagePulls?: number;
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
  /** --allowed-unsafe-sysctls: unsafe sysctls (or patterns ending in `*`) pods may set besides the safe ones. */
  allowedUnsafeSysctls?: string[];
  /**
   * (nodelet) --runtime-class-handlers: RuntimeClass name → CRI runtime handler for a node without an API server
   * (API-server mode reads node.k8s.io/v1 RuntimeClass objects instead). A class not named here is not found.
   */
  runtimeClassHandlers?: Record<string, string>;
  /** Node allocatable for admission; unlimited when unknown. */
  allocatable?: { cpuMilli: number; memoryBytes: number };
  /** Put sandboxes under /kubepods[/<qos>]/pod<uid> (default true); false = the runtime's default cgroup. */
  cgroupsPerQOS?: boolean;
  /** Prefix for pod cgroups (default '/'). */
  cgroupRoot?: string;
  /** process_start_time_seconds on /metrics/probes (default: when the kubelet was built). */
  processStartTimeSeconds?: number;
  /** Container manager, housekeeping and OOM watcher settings (used when deps.hostFs is given). */
  stats?: NodeStatsOptions;
  /** Probe streaming and event rate limits (see prober/manager.ts). */
  probes?: ProbeManagerConfig;
  /** Topology manager (topologyManagerPolicy, topologyManagerScope, topologyManagerPolicyOptions); default policy none. */
  topologyManager?: TopologyManagerSettings;
  /** Memory manager (memoryManagerPolicy, reservedMemory); default policy None. */
  memoryManager?: MemoryManagerSettings;
  /** Eviction thresholds, pressure transition period, image GC and container GC policies (kubelet defaults). */
  eviction?: EvictionWiringConfig;
  /** Pod DNS (kuberuntime/pod-dns.ts): clusterDNS, clusterDomain and resolvConf ('' = none); only spec.dnsConfig when absent. */
  dns?: { clusterDNS: string[]; clusterDomain: string; resolvConf: string };
  /** podCIDR / --pod-cidr: the pod range sent to the runtime (CRI UpdateRuntimeConfig); absent or '': the runtime's own. */
  podCIDR?: string;
  /** containerLogMaxSize (bytes; negative: no rotation) and containerLogMaxFiles; no log manager when absent. */
  containerLog?: LogRotatePolicy;
  /** Graceful node shutdown groups (shutdownGracePeriod / ...CriticalPods through migrateConfig); none: off. */
  shutdownGracePeriodByPodPriority?: ShutdownGracePeriodByPodPriority[];
  /** featureGates / --feature-gates the kubelet consults (KubeletPodResourcesGet); a gate not named has its v1.28 default. */
  featureGates?: Record<string, boolean>;
  /** CPU manager (cpuManagerPolicy, cpuManagerPolicyOptions, cpuManagerReconcilePeriod, reservedSystemCPUs); default policy none. */
  cpuManager?: CpuManagerSettings;
}

export const DEFAULT_SYNC_FREQUENCY_MS = 60_000;
