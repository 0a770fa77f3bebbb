/**
 * Image garbage collection (pkg/kubelet/images/image_gc_manager.go): every 5 min the manager records the
 * images it sees (first detected, last used by a container), removes unused images older than
 * imageMaximumGCAge (reason "age"), then, when the image filesystem is above imageGCHighThresholdPercent,
 * frees least-recently-used unused images older than imageMinimumGCAge until usage is below
 * imageGCLowThresholdPercent (reason "space"). Pinned images, the runtime's sandbox image (sandbox-image.ts) and
 * the reserved host image are never removed.
 * One GC at a time: a request while one runs joins it.
 */
import type { CriClient } from '../cri/types.ts';
import { isNotFound } from '../cri/types.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { refSpellings, sandboxImageOf } from './sandbox-image.ts';

export const HOST_IMAGE_REFS = ['nodelet.local/host:latest', 'nodelet.local/host'];

export interface ImageGcPolicy {
  highThresholdPercent: number;
  lowThresholdPercent: number;
  minAgeMs: number;
  /** 0 = disabled. */
  maxAgeMs: number;
}

export const DEFAULT_IMAGE_GC_POLICY: ImageGcPolicy = { highThresholdPercent: 85, lowThresholdPercent: 80, minAgeMs: 120_000, maxAgeMs: 0 };

export interface GcRunResult {
  /** Image references (first tag, else id) or container names removed. */
  removed: string[];
  freedBytes: number;
  errors: string[];
  /** Why it ran: 'periodic' | 'manual' | 'eviction'. */
  trigger: string;
  time: string;
}

export interface ImageGcDeps {
  cri: Pick<CriClient, 'listImages' | 'listContainers' | 'removeImage' | 'status'>;
  clock: Clock;
  logger: Logger;
  /** The image filesystem's capacity and availability (statfs of ImageFsInfo's mountpoint). */
  imageFs(): Promise<{ capacityBytes: number; availableBytes: number } | undefined>;
  /** kubelet_image_garbage_collected_total{reason}. */
  countRemoved?(reason: 'age' | 'space'): void;
  /** Node events (ImageGCFailed / FreeDiskSpaceFailed). */
  event?(type: 'Normal' | 'Warning', reason: string, message: string): void;
}

interface ImageRecord {
  id: string;
  ref: string;
  size: number;
  pinned: boolean;
  firstDetected: number;
  lastUsed: number;
  inUse: boolean;
}

export class ImageGcManager {
  private records = new Map<string, ImageRecord>();
  private inFlight: Promise<GcRunResult> | undefined;
  private last: GcRunResult | undefined;
  /** Spellings of the runtime's sandbox image; undefined until CRI Status answered. */
  private sandbox: string[] | undefined;

  constructor(
    private readonly deps: ImageGcDeps,
    readonly policy: ImageGcPolicy,
  ) {}

  lastResult(): GcRunResult | undefined {
    return this.last;
  }

  /** Periodic GC: max age, then the high/low thresholds. */
  garbageCollect(trigger = 'periodic'): Promise<GcRunResult> {
    return this.serialize(trigger, async (out) => {
      const now = this.deps.clock.now();
      await this.detect(now);
      if (this.policy.maxAgeMs > 0) {
        const old = this.unused().filter((r) => now - r.lastUsed > this.policy.maxAgeMs);
        for (const r of old) await this.remove(r, 'age', out);
      }
      const fs = await this.deps.imageFs();
      if (!fs || fs.capacityBytes <= 0) return;
      const usagePercent = 100 - Math.floor((fs.availableBytes * 100) / fs.capacityBytes);
      if (usagePercent < this.policy.highThresholdPercent) return;
      const toFree = Math.floor((fs.capacityBytes * (100 - this.policy.lowThresholdPercent)) / 100) - fs.availableBytes;
      this.deps.logger.info('image GC: disk usage above the high threshold', { usagePercent, high: this.policy.highThresholdPercent, toFree });
      await this.freeSpace(toFree, now, out);
      if (out.freedBytes < toFree) {
        this.deps.event?.('Warning', 'ImageGCFailed', `Failed to garbage collect required amount of images. Attempted to free ${toFree} bytes, but only found ${out.freedBytes} bytes eligible to free.`);
      }
    });
  }

  /** Every unused image older than imageMinimumGCAge (the gc.images control and disk-pressure reclaim). */
  deleteUnusedImages(trigger = 'manual'): Promise<GcRunResult> {
    return this.serialize(trigger, async (out) => {
      const now = this.deps.clock.now();
      await this.detect(now);
      await this.freeSpace(Number.MAX_SAFE_INTEGER, now, out);
    });
  }

  private serialize(trigger: string, run: (out: GcRunResult) => Promise<void>): Promise<GcRunResult> {
    this.inFlight ??= (async () => {
      const out: GcRunResult = { removed: [], freedBytes: 0, errors: [], trigger, time: new Date(this.deps.clock.now()).toISOString() };
      try {
        await run(out);
      } catch (err) {
        out.errors.push(String(err));
      }
      this.last = out;
      return out;
    })().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async detect(now: number): Promise<void> {
    const [images, containers, sandbox] = await Promise.all([this.deps.cri.listImages({}), this.deps.cri.listContainers({}), this.sandboxImage()]);
    const used = new Set<string>();
    for (const c of containers.containers) {
      for (const k of [c.imageRef, c.imageId, c.image?.image]) if (k) used.add(k);
    }
    const next = new Map<string, ImageRecord>();
    for (const img of images.images) {
      const keys = [img.id, ...img.repoTags, ...img.repoDigests];
      const inUse = keys.some((k) => used.has(k) || used.has(k.replace(/:latest$/, '')));
      const prev = this.records.get(img.id);
      const pinned = img.pinned || keys.some((k) => HOST_IMAGE_REFS.includes(k) || sandbox.includes(k));
      next.set(img.id, {
        id: img.id,
        ref: img.repoTags[0] ?? img.repoDigests[0] ?? img.id,
        size: Number(img.size),
        pinned,
        firstDetected: prev?.firstDetected ?? now,
        lastUsed: inUse ? now : (prev?.lastUsed ?? now),
        inUse,
      });
    }
    this.records = next;
  }

  /** The runtime's sandbox image (asked once; again after a failed call). */
  private async sandboxImage(): Promise<string[]> {
    if (this.sandbox) return this.sandbox;
    try {
      const image = sandboxImageOf((await this.deps.cri.status({ verbose: true })).info);
      this.sandbox = image === undefined ? [] : refSpellings(image);
      if (image !== undefined) this.deps.logger.info('image GC: the sandbox image is never removed', { image });
    } catch (err) {
      this.deps.logger.warn('image GC: CRI Status failed; sandbox image unknown', { err: String(err) });
      return [];
    }
    return this.sandbox;
  }

  private unused(): ImageRecord[] {
    return [...this.records.values()].filter((r) => !r.inUse && !r.pinned);
  }

  /** LRU: last used, then first detected; only images detected at least minAge ago. */
  private async freeSpace(bytes: number, now: number, out: GcRunResult): Promise<void> {
    const candidates = this.unused()
      .filter((r) => now - r.firstDetected >= this.policy.minAgeMs)
      .sort((a, b) => a.lastUsed - b.lastUsed || a.firstDetected - b.firstDetected);
    for (const r of candidates) {
      if (out.freedBytes >= bytes) break;
      await this.remove(r, 'space', out);
    }
  }

  private async remove(r: ImageRecord, reason: 'age' | 'space', out: GcRunResult): Promise<void> {
    if (!this.records.has(r.id)) return;
    try {
      await this.deps.cri.removeImage({ image: { image: r.id } });
    } catch (err) {
      if (!isNotFound(err)) {
        out.errors.push(`${r.ref}: ${String(err)}`);
        this.deps.logger.warn('image GC: remove failed', { image: r.ref, err: String(err) });
        return;
      }
    }
    this.records.delete(r.id);
    out.removed.push(r.ref);
    out.freedBytes += r.size;
    this.deps.countRemoved?.(reason);
    this.deps.logger.info('image GC: removed image', { image: r.ref, reason, size: r.size });
  }
}
