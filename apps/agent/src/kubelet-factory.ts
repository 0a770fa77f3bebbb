/**
 * Builds the core kubelet for the agent: a CRI client for the endpoint, then `createKubelet(deps, config)` from
 * @nodelet/core. Kept behind the KubeletFactory type so tests swap in a fake.
 */
import { createCriClient, createKubelet, nodeRuntimeFs } from '@nodelet/core';
import type { KubeletConfig, KubeletDeps } from '@nodelet/core/kubelet/config.ts';
import type { KubeletApi } from '@nodelet/core/kubelet/types.ts';
import type { Clock } from '@nodelet/core/util/clock.ts';
import type { Logger } from '@nodelet/core/util/logger.ts';
import type { AgentConfig } from './config/types.ts';
import { KUBELET_VERSION } from './config/types.ts';

export interface KubeletHandle {
  kubelet: KubeletApi;
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

/** The core kubelet config, from the agent's resolved configuration. */
export function coreKubeletConfig(c: AgentConfig, runtimeEndpoint: string): KubeletConfig {
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
    crashLoopBackOff: { ...c.crashLoopBackOff },
    runtimeEndpoint,
    kubeletVersion: KUBELET_VERSION,
  };
}

export const coreKubeletFactory: KubeletFactory = async (ctx) => {
  const cri = createCriClient(ctx.runtimeEndpoint, {
    timeoutMs: ctx.config.runtimeRequestTimeoutMs,
    logger: ctx.logger,
    clock: ctx.clock,
  });
  const deps: KubeletDeps = { cri, clock: ctx.clock, logger: ctx.logger, fs: nodeRuntimeFs };
  const kubelet = createKubelet(deps, coreKubeletConfig(ctx.config, ctx.runtimeEndpoint));
  return { kubelet, close: () => cri.close() };
};
