/**
 * The eviction manager's vocabulary (pkg/kubelet/eviction/api): signals, thresholds, observations, node
 * conditions, and the state the agent streams to the console.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ImageInventory } from '../images/image-gc.ts';

export type { ImageInventory, ImageInventoryItem } from '../images/image-gc.ts';

export type Signal =
  | 'memory.available'
  | 'nodefs.available'
  | 'nodefs.inodesFree'
  | 'imagefs.available'
  | 'imagefs.inodesFree'
  | 'pid.available';

export const SIGNALS: readonly Signal[] = [
  'memory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'pid.available',
];

export type PressureCondition = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';

/** Every signal is compared with LessThan: the threshold is met when available < threshold. */
export type ThresholdValue = { quantity: number; raw: string } | { percentage: number; raw: string };

export interface Threshold {
  signal: Signal;
  /** Hard thresholds have gracePeriodMs 0. */
  kind: 'hard' | 'soft';
  value: ThresholdValue;
  gracePeriodMs: number;
  /** Reclaim this much beyond the threshold before the pressure is considered resolved. */
  minReclaim?: ThresholdValue;
}

export interface Observation {
  /** Available amount (bytes, inodes or pids). */
  available: number;
  capacity: number;
  /** When the stats behind it were collected (ms). */
  time: number;
}

export type Observations = Partial<Record<Signal, Observation>>;

/** What the pod-level rankers read: the Summary's pod stats by UID. */
export interface PodUsage {
  memoryWorkingSetBytes?: number;
  /** Ephemeral storage (rootfs + logs + local volumes) for nodefs; rootfs for imagefs. */
  diskBytes?: number;
  inodes?: number;
  processes?: number;
}

export type PodUsageLookup = (pod: V1Pod) => PodUsage | undefined;

/** One signal as the console shows it. */
export interface SignalState {
  signal: Signal;
  observed?: Observation;
  thresholds: Array<{
    kind: 'hard' | 'soft';
    /** The threshold in absolute units for the current capacity. */
    quantity: number;
    raw: string;
    gracePeriodMs: number;
    met: boolean;
    /** Soft threshold met: ms left before it acts (0 = acting). */
    graceRemainingMs?: number;
    firstObservedAt?: string;
  }>;
}

export interface EvictionRecord {
  time: string;
  pod: { namespace: string; name: string; uid: string };
  signal: Signal;
  message: string;
  qosClass: string;
}

export interface PressureState {
  /** Conditions reported True (kept for the transition period after the thresholds clear). */
  conditions: PressureCondition[];
  signals: SignalState[];
  lastSync?: string;
  lastError?: string;
  evictions: EvictionRecord[];
  pressureTransitionPeriodMs: number;
}

/** One sample of every observed signal (the console's pressure history). */
export interface PressureSample {
  time: string;
  conditions: PressureCondition[];
  values: Partial<Record<Signal, { available: number; capacity: number }>>;
}

/** The eviction manager as the agent sees it. */
export interface EvictionApi {
  state(): PressureState;
  /** Samples oldest first (one per manager pass, bounded). */
  history(sinceMs?: number): PressureSample[];
  /** Called after every pass; returns the unsubscribe function. */
  watch(listener: (state: PressureState) => void): () => void;
}

/** What a GC run removed (image references or container / sandbox names) and the bytes freed. */
export interface GcResult {
  removed: string[];
  freedBytes: number;
  errors: string[];
  trigger: string;
  time: string;
}

export interface GcPolicies {
  image: { highThresholdPercent: number; lowThresholdPercent: number; minAgeMs: number; maxAgeMs: number; periodMs: number };
  container: { minAgeMs: number; maxPerPodContainer: number; maxContainers: number; periodMs: number };
}

/** Image and container GC controls (the agent serves them as authenticated tRPC mutations). */
export interface GcApi {
  /** Removes every unused image older than imageMinimumGCAge now (joins a running image GC). */
  images(): Promise<GcResult>;
  /** Removes every dead container / sandbox the policy allows now (joins a running container GC). */
  containers(): Promise<GcResult>;
  last(): { images?: GcResult; containers?: GcResult };
  policies(): GcPolicies;
  /** Every image on the node with what the next image GC would do with it (the image GC manager's own passes). */
  imageInventory(): Promise<ImageInventory>;
  /** Which GCs run now (the console disables its buttons meanwhile). */
  running(): { images: boolean; containers: boolean };
}
