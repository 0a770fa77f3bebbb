/**
 * Builds the core kubelet for the agent: a CRI client for the endpoint, then `createKubelet(deps, config)` from
 * @nodelet/core. Kept behind the KubeletFactory type so tests swap in a fake.
 */
import { createCriClient, type CriClient } from '@nodelet/core/cri';
import { createKubelet, nodeRuntimeFs, nodeTerminationMessageFs, type KubeletConfig, type KubeletDeps, type KubeletApi, type LogRotatePolicy } from '@nodelet/core/kubelet';
import { createNodeHostFs } from '@nodelet/core/cm';
import { createNodeDiskUsage } from '@nodelet/core/stats';
import { readRegularFile, type Clock, type Logger } from '@nodelet/core/util';
import type { AgentConfig } from './config/types.ts';
import { KUBELET_VERSION } from './config/types.ts';
import { coreEvictionConfig } from './config/eviction-config.ts';
import { coreApiServerConfig } from './config/apiserver-config.ts';
import { logRotatePolicy } from './config/log-config.ts';
import { coreDnsConfig } from './config/dns-config.ts';
import { shutdownGroups } from './config/shutdown-config.ts';
import { coreCpuManager, reservedResources } from './config/cpu-manager-config.ts';
import { coreTopologyMemory } from './config/topology-memory-config.ts';
import { featureGatesOf } from './config/feature-gates-config.ts';
import { LogindInhibitor } from './nodeshutdown/logind-inhibitor.ts';
import { createApiClientFromKubeconfig, type ApiClient } from '@nodelet/core/apiclient';

export interface KubeletHandle {
  kubelet: KubeletApi;
  /** The API server client (--kubeconfig): TokenReview / SubjectAccessReview for the 10250 auth filter. */
  apiClient?: ApiClient;
  /** Closes what the factory opened (the CRI channel). */
  close(): Promise<void> | void;
}

export interface KubeletFactoryContext {
  config: AgentConfig;
  runtimeEndpoint: string;
  logger: Logger;
  clock: Clock;
}

export type KubeletFactory = (ctx: KubeletFactoryContext) => Promise<KubeletHandle>;

/**
 * The core kubelet config, from the agent's resolved configuration. `imageFsPath`: the image filesystem as the
 * runtime reports it (CRI ImageFsInfo's mountpoint); default `<root-dir>/runtime`, the embedded runtime's.
 */
export function coreKubeletConfig(c: AgentConfig, runtimeEndpoint: string, imageFsPath = `${c.rootDir}/runtime`): KubeletConfig {
  return {
    nodeName: c.nodeName,
    ...(c.podManifestPath !== undefined ? { podManifestPath: c.podManifestPath } : {}),
    ...(c.manifestUrl !== undefined ? { manifestUrl: c.manifestUrl } : {}),
    fileCheckFrequencyMs: c.fileCheckFrequencyMs,
    httpCheckFrequencyMs: c.httpCheckFrequencyMs,
    syncFrequencyMs: c.syncFrequencyMs,
    podLogsDir: c.podLogsDir,
    rootDir: c.rootDir,
    maxPods: c.maxPods,
    plegRelistPeriodMs: c.plegRelistPeriodMs,
    plegRelistThresholdMs: c.plegRelistThresholdMs,
    eventedPleg: c.eventedPleg,
    cgroupRoot: c.cgroupRoot,
    cgroupsPerQOS: c.cgroupsPerQOS,
    stats: {
      housekeepingIntervalMs: c.housekeepingIntervalMs,
      maxHousekeepingIntervalMs: Math.round(c.housekeepingIntervalMs * 1.5),
      imageFsPath,
      ...(c.evictionHard ? { evictionHard: c.evictionHard } : {}),
      ...reservedResources(c),
      volumeStatsAggPeriodMs: c.volumeStatsAggPeriodMs,
    },
    eviction: coreEvictionConfig(c),
    ...(c.serializeImagePulls !== undefined ? { serializeImagePulls: c.serializeImagePulls } : {}),
    ...(c.maxParallelImagePulls !== undefined ? { maxParallelImagePulls: c.maxParallelImagePulls } : {}),
    crashLoopBackOff: { ...c.crashLoopBackOff },
    runtimeEndpoint,
    kubeletVersion: KUBELET_VERSION,
    ...(c.kubeconfig ? { apiServer: coreApiServerConfig(c, c.port) } : {}),
    ...(c.nodeLabels ? { nodeLabels: c.nodeLabels } : {}),
    ...(c.allowedUnsafeSysctls ? { allowedUnsafeSysctls: c.allowedUnsafeSysctls } : {}),
    ...(c.runtimeClassHandlers ? { runtimeClassHandlers: c.runtimeClassHandlers } : {}),
    containerLog: containerLogPolicy(c),
    dns: coreDnsConfig(c).dns,
    ...(c.podCIDR ? { podCIDR: c.podCIDR } : {}),
    shutdownGracePeriodByPodPriority: shutdownGroups(c),
    cpuManager: coreCpuManager(c),
    ...coreTopologyMemory(c),
    featureGates: gatesOf(c),
  };
}

/** Validated with the rest of the configuration (config/feature-gates-config.ts); a bad value never gets here. */
function gatesOf(c: AgentConfig): Record<string, boolean> {
  const r = featureGatesOf(c);
  if (!r.ok) throw new Error(r.reason);
  return r.gates;
}

/** Validated with the rest of the configuration (config/log-config.ts); a bad value never gets here. */
function containerLogPolicy(c: AgentConfig): LogRotatePolicy {
  const r = logRotatePolicy(c);
  if (!r.ok) throw new Error(r.reason);
  return r.policy;
}

/** What a test entry may set that the kubelet keeps constant (the image GC period is 5 min, ImageGCPeriod). */
export interface KubeletOverrides {
  imageGcPeriodMs?: number;
}

export const coreKubeletFactory: KubeletFactory = (ctx) => kubeletFactory()(ctx);

/** The core kubelet factory; `overrides` only from a test entry (testing/agent-main.ts). */
export const kubeletFactory = (overrides: KubeletOverrides = {}): KubeletFactory => async (ctx) => {
  let apiClient: ApiClient | undefined;
  if (ctx.config.kubeconfig) {
    const r = await createApiClientFromKubeconfig(ctx.config.kubeconfig, { clock: ctx.clock, qps: ctx.config.kubeAPIQPS, burst: ctx.config.kubeAPIBurst });
    if (!r.ok) throw new Error(r.reason);
    apiClient = r.client;
  }
  const cri = createCriClient(ctx.runtimeEndpoint, {
    timeoutMs: ctx.config.runtimeRequestTimeoutMs,
    logger: ctx.logger,
    clock: ctx.clock,
  });
  const deps: KubeletDeps = { ...(apiClient ? { apiClient } : {}), cri, clock: ctx.clock, logger: ctx.logger, fs: nodeRuntimeFs, terminationMessages: nodeTerminationMessageFs, readHostFile: readRegularFile, hostFs: createNodeHostFs(), du: createNodeDiskUsage() };
  const imageFs = await imageFsMountpoint(cri, ctx.logger);
  const config = coreKubeletConfig(ctx.config, ctx.runtimeEndpoint, imageFs);
  for (const ip of coreDnsConfig(ctx.config).invalid) ctx.logger.info('Invalid clusterDNS IP', { IP: ip });
  // Graceful node shutdown listens to systemd-logind (the system D-Bus) whenever it is configured.
  if (config.shutdownGracePeriodByPodPriority?.length) deps.shutdownInhibitor = new LogindInhibitor();
  if (overrides.imageGcPeriodMs !== undefined) config.eviction = { ...config.eviction, imageGcPeriodMs: overrides.imageGcPeriodMs };
  const kubelet = createKubelet(deps, config);
  return { kubelet, ...(apiClient ? { apiClient } : {}), close: () => cri.close() };
};

/** The image filesystem's mountpoint from CRI ImageFsInfo (as the kubelet does); undefined when not answered. */
export async function imageFsMountpoint(cri: Pick<CriClient, 'imageFsInfo'>, logger: Logger): Promise<string | undefined> {
  try {
    const r = await cri.imageFsInfo({});
    const mountpoint = r.imageFilesystems[0]?.fsId?.mountpoint;
    if (mountpoint) return mountpoint;
    logger.warn('ImageFsInfo named no image filesystem; imagefs falls back to the root dir');
  } catch (err) {
    logger.warn('ImageFsInfo failed; imagefs falls back to the root dir', { err: String(err) });
  }
  return undefined;
}
