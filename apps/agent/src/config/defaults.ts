/** The kubelet's defaults. Two sets differ, as in the kubelet: flags-only runs use the legacy CLI defaults. */
import type { AgentConfig } from './types.ts';
import { DEFAULT_POD_LOGS_DIR, DEFAULT_ROOT_DIR } from './types.ts';
import { EVICTION_DEFAULTS } from './eviction-config.ts';
import { APISERVER_DEFAULTS } from './apiserver-config.ts';
import { BOOTSTRAP_DEFAULTS } from './bootstrap-config.ts';
import { HTTP_DEFAULTS } from './http-config.ts';
import { LOG_DEFAULTS } from './log-config.ts';
import { RECORDER_DEFAULTS } from './recorder-config.ts';
import { DNS_DEFAULTS } from './dns-config.ts';
import { POD_CIDR_DEFAULTS } from './pod-cidr-config.ts';
import { SHUTDOWN_DEFAULTS } from './shutdown-config.ts';
import { ROTATION_DEFAULTS } from './rotation-config.ts';
import { CPU_MANAGER_DEFAULTS } from './cpu-manager-config.ts';
import { TOPOLOGY_MEMORY_DEFAULTS } from './topology-memory-config.ts';

export type Defaults = Omit<AgentConfig, 'nodeName'>;

/** SetDefaults_KubeletConfiguration values (used when --config is given). */
export function configFileDefaults(): Defaults {
  return {
    rootDir: DEFAULT_ROOT_DIR,
    address: '0.0.0.0',
    port: 10250,
    readOnlyPort: 0,
    healthzPort: 10248,
    healthzBindAddress: '127.0.0.1',
    anonymousAuth: false,
    authorizationMode: 'Webhook',
    podLogsDir: DEFAULT_POD_LOGS_DIR,
    maxPods: 110,
    syncFrequencyMs: 60_000,
    fileCheckFrequencyMs: 20_000,
    httpCheckFrequencyMs: 20_000,
    runtimeRequestTimeoutMs: 120_000,
    plegRelistPeriodMs: 1_000,
    plegRelistThresholdMs: 180_000,
    eventedPleg: true,
    housekeepingIntervalMs: 10_000,
    cgroupRoot: '/',
    cgroupsPerQOS: true,
    crashLoopBackOff: { initialMs: 10_000, maxMs: 300_000 },
    volumeStatsAggPeriodMs: 60_000,
    verbosity: 0,
    ...EVICTION_DEFAULTS,
    ...APISERVER_DEFAULTS,
    ...BOOTSTRAP_DEFAULTS,
    ...HTTP_DEFAULTS,
    ...LOG_DEFAULTS,
    ...RECORDER_DEFAULTS,
    ...DNS_DEFAULTS,
    ...POD_CIDR_DEFAULTS,
    ...SHUTDOWN_DEFAULTS,
    ...ROTATION_DEFAULTS,
    ...CPU_MANAGER_DEFAULTS,
    ...TOPOLOGY_MEMORY_DEFAULTS,
  };
}

/**
 * Flags-only defaults: the kubelet's legacy CLI defaults (read-only port 10255, AlwaysAllow), except
 * anonymous auth, which nodelet keeps off.
 */
export function flagDefaults(): Defaults {
  return { ...configFileDefaults(), readOnlyPort: 10255, authorizationMode: 'AlwaysAllow' };
}
