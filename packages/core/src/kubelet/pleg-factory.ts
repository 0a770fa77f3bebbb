/**
 * Builds the kubelet's PLEG: the generic relist PLEG, wrapped by the evented PLEG (runtime event stream,
 * per-pod updates, slow relist as the safety net) when config.eventedPleg is on.
 */
import type { EventBus } from '../events/types.ts';
import type { PodStatusCache, Runtime } from '../container/types.ts';
import { GenericPleg } from '../pleg/generic-pleg.ts';
import { EventedPleg } from '../pleg/evented-pleg.ts';
import type { PlegMetrics } from '../pleg/types.ts';
import { detectEventSource } from '../cri/runtime-events.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';

export interface PlegParts {
  runtime: Runtime;
  cache: PodStatusCache;
  bus: EventBus;
  metrics?: PlegMetrics;
  /** The pod workers' isSyncingPod (EventedPlegDeps.syncingPod). */
  syncingPod?: (uid: string) => boolean;
}

export function buildPleg(deps: KubeletDeps, c: KubeletConfig, parts: PlegParts): GenericPleg | EventedPleg {
  const { clock, logger } = deps;
  const metrics = deps.plegMetrics ?? parts.metrics;
  const generic = new GenericPleg(
    { runtime: parts.runtime, cache: parts.cache, clock, logger, bus: parts.bus, ...(metrics ? { metrics } : {}) },
    { relistPeriodMs: c.plegRelistPeriodMs, relistThresholdMs: c.plegRelistThresholdMs, channelCapacity: 1000 },
  );
  if (!c.eventedPleg) return generic;
  const detect = deps.detectEventSource ?? (() => detectEventSource(deps.cri, c.runtimeEndpoint, { clock, logger }));
  return new EventedPleg(
    { generic, cache: parts.cache, clock, logger, detect, ...(metrics ? { metrics } : {}), ...(parts.syncingPod ? { syncingPod: parts.syncingPod } : {}), ...generateFrom(parts.runtime) },
    { fallbackRelistPeriodMs: c.plegRelistPeriodMs, fallbackRelistThresholdMs: c.plegRelistThresholdMs },
  );
}

/** The runtime's GeneratePodStatus for the evented PLEG, where it has one. */
function generateFrom(runtime: Runtime): { generatePodStatus?: NonNullable<Runtime['generatePodStatus']> } {
  return runtime.generatePodStatus ? { generatePodStatus: (pod) => runtime.generatePodStatus!(pod) } : {};
}
