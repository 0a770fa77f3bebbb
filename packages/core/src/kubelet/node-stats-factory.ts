/** Builds NodeStats from the kubelet's deps, config and parts (only when the kubelet has a host file system). */
import { createNodeDiskUsage } from '../stats/disk-usage.ts';
import type { StatusCache } from '../container/cache.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { EventBus } from '../events/types.ts';
import type { PodManager } from '../pod/types.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';
import { DEFAULT_EVICTION_HARD } from './stats-options.ts';
import { NodeStats } from './stats-wiring.ts';

export interface NodeStatsParts {
  recorder: EventRecorder;
  bus: EventBus;
  podManager: PodManager;
  cache: StatusCache;
  /** The pod is one of the kubelet's active pods (active-pods.ts). */
  isActive: (uid: string) => boolean;
  startTimeMs: number;
}

export function buildNodeStats(deps: KubeletDeps, config: KubeletConfig, parts: NodeStatsParts): NodeStats | undefined {
  if (!deps.hostFs) return undefined;
  const o = config.stats ?? {};
  const housekeeping = {
    ...(o.housekeepingIntervalMs !== undefined ? { intervalMs: o.housekeepingIntervalMs } : {}),
    ...(o.maxHousekeepingIntervalMs !== undefined ? { maxIntervalMs: o.maxHousekeepingIntervalMs } : {}),
    // cAdvisor's jitter(interval, 1.0), as the kubelet's embedded cAdvisor waits between housekeepings.
    jitterFactor: o.housekeepingJitterFactor ?? 1.0,
    ...(o.watchIntervalMs !== undefined ? { watchIntervalMs: o.watchIntervalMs } : {}),
    ...(o.volumeStatsAggPeriodMs !== undefined ? { fsUsageIntervalMs: o.volumeStatsAggPeriodMs } : {}),
  };
  return new NodeStats(
    {
      fs: deps.hostFs,
      cri: deps.cri,
      ...(deps.metrics ? { runtimeMetrics: deps.metrics } : {}),
      du: deps.du ?? createNodeDiskUsage(),
      clock: deps.clock,
      logger: deps.logger.child('stats'),
      recorder: parts.recorder,
      bus: parts.bus,
      pods: () => parts.podManager.getPods(),
      status: (uid) => parts.cache.get(uid).status,
      active: parts.isActive,
    },
    {
      nodeName: config.nodeName,
      rootDir: config.rootDir,
      maxPods: config.maxPods,
      podLogsDir: config.podLogsDir,
      nodeStartTimeMs: parts.startTimeMs,
      housekeeping,
      ...(o.imageFsPath !== undefined ? { imageFsPath: o.imageFsPath } : {}),
      ...(o.oomWatcher !== undefined ? { oomWatcher: o.oomWatcher } : {}),
      ...(config.cgroupRoot !== undefined ? { cgroupRoot: config.cgroupRoot } : {}),
      ...(config.cgroupsPerQOS !== undefined ? { cgroupsPerQOS: config.cgroupsPerQOS } : {}),
      ...(o.kubeReserved ? { kubeReserved: o.kubeReserved } : {}),
      ...(o.systemReserved ? { systemReserved: o.systemReserved } : {}),
      evictionHard: o.evictionHard ?? DEFAULT_EVICTION_HARD,
      ...(o.enforceNodeAllocatable ? { enforceNodeAllocatable: o.enforceNodeAllocatable } : {}),
      ...(o.cpuCFSQuota !== undefined ? { enforceCpuLimits: o.cpuCFSQuota } : {}),
      ...(o.cpuCFSQuotaPeriodUs !== undefined ? { cpuPeriod: o.cpuCFSQuotaPeriodUs } : {}),
      ...(o.podPidsLimit !== undefined ? { podPidsLimit: o.podPidsLimit } : {}),
    },
  );
}
