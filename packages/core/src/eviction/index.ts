/** @nodelet/core/eviction: eviction flag parsing (for the agent's config) and the eviction/GC API types. */
export { parseMapFlag, parseThresholdConfig, parseThresholdValue } from './thresholds.ts';
export { parseGoDuration } from './duration.ts';
export type {
  EvictionApi,
  EvictionRecord,
  GcApi,
  GcPolicies,
  GcResult,
  ImageInventory,
  ImageInventoryItem,
  PressureCondition,
  PressureSample,
  PressureState,
  Signal,
  SignalState,
} from './types.ts';
