/**
 * The image GC's decisions as pure functions over the detected images (pkg/kubelet/images/image_gc_manager.go):
 * which unused images are past imageMaximumGCAge, how many bytes the thresholds ask to free, and the LRU order of
 * the candidates. ImageGcManager runs them for a GC and for the inventory's "would the next GC remove it".
 */

export interface ImageGcPolicy {
  highThresholdPercent: number;
  lowThresholdPercent: number;
  minAgeMs: number;
  /** 0 = disabled. */
  maxAgeMs: number;
}

export const DEFAULT_IMAGE_GC_POLICY: ImageGcPolicy = { highThresholdPercent: 85, lowThresholdPercent: 80, minAgeMs: 120_000, maxAgeMs: 0 };

export interface ImageRecord {
  id: string;
  ref: string;
  tags: string[];
  digests: string[];
  size: number;
  pinned: boolean;
  firstDetected: number;
  lastUsed: number;
  inUse: boolean;
  /** namespace/name of the pods whose containers (any state) use the image. */
  pods: string[];
}

export function unusedImages(records: Iterable<ImageRecord>): ImageRecord[] {
  return [...records].filter((r) => !r.inUse && !r.pinned);
}

/** Unused images not used for longer than imageMaximumGCAge (none when it is 0). */
export function pastMaxAge(records: Iterable<ImageRecord>, policy: ImageGcPolicy, now: number): ImageRecord[] {
  if (policy.maxAgeMs <= 0) return [];
  return unusedImages(records).filter((r) => now - r.lastUsed > policy.maxAgeMs);
}

/** Bytes to free to get from above imageGCHighThresholdPercent down to imageGCLowThresholdPercent; 0 below the high threshold. */
export function bytesToFree(fs: { capacityBytes: number; availableBytes: number } | undefined, policy: ImageGcPolicy): { usagePercent?: number; bytes: number } {
  if (!fs || fs.capacityBytes <= 0) return { bytes: 0 };
  const usagePercent = 100 - Math.floor((fs.availableBytes * 100) / fs.capacityBytes);
  if (usagePercent < policy.highThresholdPercent) return { usagePercent, bytes: 0 };
  return { usagePercent, bytes: Math.floor((fs.capacityBytes * (100 - policy.lowThresholdPercent)) / 100) - fs.availableBytes };
}

/** LRU candidates for freeing space: unused, detected at least imageMinimumGCAge ago; last used, then first detected. */
export function spaceCandidates(records: Iterable<ImageRecord>, policy: ImageGcPolicy, now: number): ImageRecord[] {
  return unusedImages(records)
    .filter((r) => now - r.firstDetected >= policy.minAgeMs)
    .sort((a, b) => a.lastUsed - b.lastUsed || a.firstDetected - b.firstDetected);
}

/** Why a GC keeps an image it did not choose (inventory text). */
export function keepReason(r: ImageRecord, policy: ImageGcPolicy, now: number): string {
  if (r.pinned) return 'pinned (sandbox, host or runtime-pinned image)';
  if (r.inUse) return 'in use by a container';
  if (now - r.firstDetected < policy.minAgeMs) return `younger than imageMinimumGCAge (${Math.round(policy.minAgeMs / 1000)} s)`;
  return 'unused; kept while the image filesystem is below the high threshold';
}
