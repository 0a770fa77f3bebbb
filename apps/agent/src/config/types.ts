/** The agent's resolved configuration: kubelet defaults, then the KubeletConfiguration file, then flags. */
import type { EvictionAgentConfig } from './eviction-config.ts';
import type { ApiServerAgentConfig } from './apiserver-config.ts';
import type { HttpAgentConfig } from './http-config.ts';
import type { LogAgentConfig } from './log-config.ts';
import type { RecorderAgentConfig } from './recorder-config.ts';
import type { DnsAgentConfig } from './dns-config.ts';
import type { PodCidrAgentConfig } from './pod-cidr-config.ts';
import type { ShutdownAgentConfig } from './shutdown-config.ts';
import type { RotationAgentConfig } from './rotation-config.ts';
import type { CpuManagerAgentConfig } from './cpu-manager-config.ts';
import type { TopologyMemoryAgentConfig } from './topology-memory-config.ts';
import type { FeatureGatesAgentConfig } from './feature-gates-config.ts';

export type AuthorizationMode = 'AlwaysAllow' | 'Webhook';

export interface AgentConfig extends EvictionAgentConfig, ApiServerAgentConfig, HttpAgentConfig, LogAgentConfig, RecorderAgentConfig, DnsAgentConfig, PodCidrAgentConfig, ShutdownAgentConfig, FeatureGatesAgentConfig, CpuManagerAgentConfig, RotationAgentConfig, TopologyMemoryAgentConfig {
  nodeName: string;
  rootDir: string;
  /** --bootstrap-kubeconfig (bootstrap-config.ts): request a client certificate with it, then write --kubeconfig. */
  bootstrapKubeconfig?: string;
  /** --cert-dir: the issued certificates (kubelet-client-current.pem, ...); default <root-dir>/pki. */
  certDir: string;
  /** staticPodPath / --pod-manifest-path */
  podManifestPath?: string;
  /** staticPodURL / --manifest-url */
  manifestUrl?: string;
  /** undefined: use (and if needed spawn) the embedded runtime at unix://<rootDir>/runtime/nodelet.sock */
  containerRuntimeEndpoint?: string;
  address: string;
  port: number;
  /** 0 disables the read-only server. */
  readOnlyPort: number;
  /** 0 disables the healthz server. */
  healthzPort: number;
  healthzBindAddress: string;
  anonymousAuth: boolean;
  authorizationMode: AuthorizationMode;
  clientCAFile?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  podLogsDir: string;
  maxPods: number;
  /** allowedUnsafeSysctls / --allowed-unsafe-sysctls: besides the safe sysctls. */
  allowedUnsafeSysctls?: string[];
  /** (nodelet) --runtime-class-handlers: RuntimeClass name → CRI runtime handler without an API server. */
  runtimeClassHandlers?: Record<string, string>;
  syncFrequencyMs: number;
  fileCheckFrequencyMs: number;
  httpCheckFrequencyMs: number;
  runtimeRequestTimeoutMs: number;
  plegRelistPeriodMs: number;
  plegRelistThresholdMs: number;
  /** --evented-pleg (default true): react to runtime events, relist as the safety net. */
  eventedPleg: boolean;
  /** --housekeeping-interval (cAdvisor's, 10s; dynamic up to 1.5×): how often stats are sampled. */
  housekeepingIntervalMs: number;
  /** --cgroup-root (default '/'): the QoS tree lives at <root>/kubepods. */
  cgroupRoot: string;
  /** --cgroups-per-qos (default true): pod cgroups under kubepods/<qos>. */
  cgroupsPerQOS: boolean;
  crashLoopBackOff: { initialMs: number; maxMs: number };
  /** klog-style verbosity (--v); 4 and above logs debug lines. */
  verbosity: number;
  /** --volume-stats-agg-period / volumeStatsAggPeriod (kubelet: 1m; cAdvisor's du period is also 1 min): disk usage refresh. */
  volumeStatsAggPeriodMs: number;
}

/**
 * Settings as read from a source (config file or flags): every field optional. Merging is a plain
 * left-to-right spread (defaults, file, flags).
 */
export type PartialSettings = Partial<Omit<AgentConfig, 'crashLoopBackOff'>> & {
  crashLoopBackOffInitialMs?: number;
  crashLoopBackOffMaxMs?: number;
};

export const DEFAULT_ROOT_DIR = '/var/lib/kubelet';
export const DEFAULT_POD_LOGS_DIR = '/var/log/pods';
export const KUBELET_VERSION = 'v1.34.0-nodelet';

export type ConfigResult<T> = { ok: true; value: T; warnings: string[] } | { ok: false; reason: string };
