/** @nodelet/core/kubelet: build the kubelet (createKubelet) and the API it gives the agent's servers and streams. */
export { createKubelet, Kubelet } from './kubelet.ts';
export type { ApiServerConfig, KubeletConfig, KubeletDeps } from './config.ts';
export type { MemoryManagerSettings, TopologyManagerSettings } from './resource-manager-settings.ts';
export { parseReservedMemoryFlag, type MemoryReservation } from '../cm/memorymanager/reserved.ts';
export type { EvictionWiringConfig } from './eviction-wiring.ts';
export type {
  ContainerLogOptions,
  HealthCheck,
  HealthReport,
  KubeletApi,
  LogsResult,
  NodeSummary,
  ProbesApi,
  ProbeWorkerInfo,
} from './types.ts';
export type { CgroupStatus, MetricsPath, ProcessInfo, StatsApi, StatsContainer } from './stats-api.ts';
export { nodeRuntimeFs } from './node-fs.ts';
export { nodeTerminationMessageFs } from './termination-message-fs.ts';
export { createSysctlAllowlist } from '../lifecycle/sysctl-admit.ts';
export { checkLogRotatePolicy, DEFAULT_CONTAINER_LOG_MAX_FILES, DEFAULT_CONTAINER_LOG_MAX_SIZE, type LogRotatePolicy } from '../kuberuntime/logs/log-rotation.ts';
export { migrateConfig, type ShutdownGracePeriodByPodPriority } from './node-shutdown-groups.ts';
export type { InhibitLock, ShutdownInhibitor } from './node-shutdown.ts';
export { defaultNodeIP } from '../nodestatus/host-facts.ts';
