/**
 * Eviction and garbage-collection settings: the kubelet's flags (--eviction-hard ...), their
 * KubeletConfiguration fields, defaults, validation (with the kubelet's messages), and the core config.
 */
import { parseMapFlag, parseThresholdConfig, parseThresholdValue } from '@nodelet/core/eviction';
import type { EvictionWiringConfig } from '@nodelet/core/kubelet';
import type { FlagSpec } from './flag-spec.ts';

export interface EvictionAgentConfig {
  /** undefined: the kubelet's Linux defaults (memory.available<100Mi, nodefs.available<10%, nodefs.inodesFree<5%, imagefs.available<15%). */
  evictionHard?: Record<string, string>;
  evictionSoft?: Record<string, string>;
  evictionSoftGracePeriod?: Record<string, string>;
  evictionMinimumReclaim?: Record<string, string>;
  evictionPressureTransitionPeriodMs: number;
  /** Seconds; soft evictions use it as the pod's grace period. */
  evictionMaxPodGracePeriod: number;
  imageGCHighThresholdPercent: number;
  imageGCLowThresholdPercent: number;
  imageMinimumGCAgeMs: number;
  /** 0 disables. */
  imageMaximumGCAgeMs: number;
  /** --maximum-dead-containers-per-container (1). */
  maxPerPodContainerCount: number;
  /** --maximum-dead-containers (−1 = no limit). */
  maxContainerCount: number;
  /** --minimum-container-ttl-duration (0). */
  minimumContainerTtlMs: number;
  /** serializeImagePulls (default: true unless maxParallelImagePulls ≥ 2). */
  serializeImagePulls?: boolean;
  maxParallelImagePulls?: number;
}

export const EVICTION_DEFAULTS: EvictionAgentConfig = {
  evictionPressureTransitionPeriodMs: 300_000,
  evictionMaxPodGracePeriod: 0,
  imageGCHighThresholdPercent: 85,
  imageGCLowThresholdPercent: 80,
  imageMinimumGCAgeMs: 120_000,
  imageMaximumGCAgeMs: 0,
  maxPerPodContainerCount: 1,
  maxContainerCount: -1,
  minimumContainerTtlMs: 0,
};

export const EVICTION_FLAG_SPECS: FlagSpec<keyof EvictionAgentConfig>[] = [
  { name: 'eviction-hard', kind: 'map<', key: 'evictionHard', help: 'Hard eviction thresholds, e.g. memory.available<1Gi,nodefs.available<10%.', defaultText: 'imagefs.available<15%,memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%' },
  { name: 'eviction-soft', kind: 'map<', key: 'evictionSoft', help: 'Soft eviction thresholds (need --eviction-soft-grace-period), e.g. memory.available<1.5Gi.' },
  { name: 'eviction-soft-grace-period', kind: 'map=', key: 'evictionSoftGracePeriod', help: 'Grace periods of the soft thresholds, e.g. memory.available=1m30s.' },
  { name: 'eviction-minimum-reclaim', kind: 'map=', key: 'evictionMinimumReclaim', help: 'Minimum reclaim once a threshold is met, e.g. imagefs.available=2Gi.' },
  { name: 'eviction-pressure-transition-period', kind: 'duration', key: 'evictionPressureTransitionPeriodMs', help: 'How long a pressure condition is held after the thresholds clear.', defaultText: '5m0s' },
  { name: 'eviction-max-pod-grace-period', kind: 'int', key: 'evictionMaxPodGracePeriod', help: 'Grace period (s) for pods evicted by soft thresholds.', defaultText: '0' },
  { name: 'image-gc-high-threshold', kind: 'int', key: 'imageGCHighThresholdPercent', help: 'Image filesystem usage percent that starts image GC.', defaultText: '85' },
  { name: 'image-gc-low-threshold', kind: 'int', key: 'imageGCLowThresholdPercent', help: 'Image filesystem usage percent image GC frees down to.', defaultText: '80' },
  { name: 'minimum-image-gc-age', kind: 'duration', key: 'imageMinimumGCAgeMs', help: 'Minimum age of an unused image before it may be garbage collected.', defaultText: '2m0s' },
  { name: 'image-maximum-gc-age', kind: 'duration', key: 'imageMaximumGCAgeMs', help: 'Unused images older than this are removed regardless of disk usage (0 disables).', defaultText: '0s' },
  { name: 'maximum-dead-containers-per-container', kind: 'int', key: 'maxPerPodContainerCount', help: 'Dead instances kept per container.', defaultText: '1' },
  { name: 'maximum-dead-containers', kind: 'int', key: 'maxContainerCount', help: 'Dead containers kept in total (-1: no limit).', defaultText: '-1' },
  { name: 'serialize-image-pulls', kind: 'bool', key: 'serializeImagePulls', help: 'Pull images one at a time.', defaultText: 'true' },
  { name: 'max-parallel-image-pulls', kind: 'int', key: 'maxParallelImagePulls', help: 'Maximum parallel image pulls when not serialized (0: no limit).' },
  { name: 'minimum-container-ttl-duration', kind: 'duration', key: 'minimumContainerTtlMs', help: 'Minimum age of a dead container before it may be garbage collected.', defaultText: '0s' },
];

/** KubeletConfiguration paths (the container GC knobs are flags only, as in the kubelet). */
export const EVICTION_FILE_FIELDS = [
  { path: 'evictionHard', key: 'evictionHard', kind: 'map' },
  { path: 'evictionSoft', key: 'evictionSoft', kind: 'map' },
  { path: 'evictionSoftGracePeriod', key: 'evictionSoftGracePeriod', kind: 'map' },
  { path: 'evictionMinimumReclaim', key: 'evictionMinimumReclaim', kind: 'map' },
  { path: 'evictionPressureTransitionPeriod', key: 'evictionPressureTransitionPeriodMs', kind: 'duration' },
  { path: 'evictionMaxPodGracePeriod', key: 'evictionMaxPodGracePeriod', kind: 'int' },
  { path: 'imageGCHighThresholdPercent', key: 'imageGCHighThresholdPercent', kind: 'int' },
  { path: 'imageGCLowThresholdPercent', key: 'imageGCLowThresholdPercent', kind: 'int' },
  { path: 'imageMinimumGCAge', key: 'imageMinimumGCAgeMs', kind: 'duration' },
  { path: 'imageMaximumGCAge', key: 'imageMaximumGCAgeMs', kind: 'duration' },
  { path: 'serializeImagePulls', key: 'serializeImagePulls', kind: 'bool' },
  { path: 'maxParallelImagePulls', key: 'maxParallelImagePulls', kind: 'int' },
] as const;

/** A map flag's value ("a<b,c<d" or "a=b"). */
export function parseMapFlagValue(raw: string, sep: '<' | '='): { ok: true; value: Record<string, string> } | { ok: false; reason: string } {
  return parseMapFlag(raw, sep);
}

/** The first problem, naming the field (as the kubelet refuses to start). */
export function validateEviction(c: EvictionAgentConfig): string | undefined {
  for (const [field, m] of [['evictionHard', c.evictionHard], ['evictionSoft', c.evictionSoft]] as const) {
    for (const [signal, val] of Object.entries(m ?? {})) {
      const r = parseThresholdValue(signal, val);
      if (!r.ok) return `${field}: ${r.reason}`;
    }
  }
  const all = parseThresholdConfig(c);
  if (!all.ok) {
    const field = /grace period|duration/.test(all.reason) ? 'evictionSoftGracePeriod' : 'evictionMinimumReclaim';
    return `${field}: ${all.reason}`;
  }
  const hi = c.imageGCHighThresholdPercent;
  const lo = c.imageGCLowThresholdPercent;
  if (hi < 0 || hi > 100) return `imageGCHighThresholdPercent (--image-gc-high-threshold) ${hi} must be between 0 and 100, inclusive`;
  if (lo < 0 || lo > 100) return `imageGCLowThresholdPercent (--image-gc-low-threshold) ${lo} must be between 0 and 100, inclusive`;
  if (lo > hi) return `imageGCLowThresholdPercent (--image-gc-low-threshold) ${lo} must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) ${hi}`;
  if (c.imageMaximumGCAgeMs !== 0 && c.imageMaximumGCAgeMs <= c.imageMinimumGCAgeMs) {
    return `imageMaximumGCAge ${c.imageMaximumGCAgeMs}ms must be greater than imageMinimumGCAge ${c.imageMinimumGCAgeMs}ms`;
  }
  if (c.evictionPressureTransitionPeriodMs < 0) return 'evictionPressureTransitionPeriod must be >= 0';
  const par = c.maxParallelImagePulls;
  if (par !== undefined && par < 0) return `maxParallelImagePulls (--max-parallel-image-pulls) ${par} must be >= 0`;
  if (par !== undefined && par > 1 && c.serializeImagePulls === true) {
    return `maxParallelImagePulls (--max-parallel-image-pulls) ${par} must be 1 or unset when serializeImagePulls (--serialize-image-pulls) is true`;
  }
  return undefined;
}

/** The core kubelet's eviction config from the agent's. */
export function coreEvictionConfig(c: EvictionAgentConfig): EvictionWiringConfig {
  return {
    ...(c.evictionHard ? { evictionHard: c.evictionHard } : {}),
    ...(c.evictionSoft ? { evictionSoft: c.evictionSoft } : {}),
    ...(c.evictionSoftGracePeriod ? { evictionSoftGracePeriod: c.evictionSoftGracePeriod } : {}),
    ...(c.evictionMinimumReclaim ? { evictionMinimumReclaim: c.evictionMinimumReclaim } : {}),
    pressureTransitionPeriodMs: c.evictionPressureTransitionPeriodMs,
    maxPodGracePeriodSeconds: c.evictionMaxPodGracePeriod,
    imageGc: {
      highThresholdPercent: c.imageGCHighThresholdPercent,
      lowThresholdPercent: c.imageGCLowThresholdPercent,
      minAgeMs: c.imageMinimumGCAgeMs,
      maxAgeMs: c.imageMaximumGCAgeMs,
    },
    containerGc: { minAgeMs: c.minimumContainerTtlMs, maxPerPodContainer: c.maxPerPodContainerCount, maxContainers: c.maxContainerCount },
  };
}
