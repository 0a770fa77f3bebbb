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
import { bytesToFree, keepReason, pastMaxAge, spaceCandidates, type ImageGcPolicy, type ImageRecord } from './image-gc-policy.ts';

export { DEFAULT_IMAGE_GC_POLICY, type ImageGcPolicy } from './image-gc-policy.ts';

export const HOST_IMAGE_REFS = ['nodelet.local/host:latest', 'nodelet.local/host'];

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

/** One image as the GC sees it, and what the next GCs would do with it (the console's images page). */
export interface ImageInventoryItem {
  id: string;
  tags: string[];
  digests: string[];
  sizeBytes: number;
  pinned: boolean;
  inUse: boolean;
  pods: string[];
  firstDetected: string;
  lastUsed: string;
  /** The next periodic GC (max age, then the thresholds) with the image filesystem as it is now. */
  nextGc: { remove: boolean; reason?: 'age' | 'space'; why: string };
  /** A manual GC (gc.images: every unused image past imageMinimumGCAge). */
  manualGc: { remove: boolean; why: string };
}

export interface ImageInventory {
  time: string;
  /** An image GC is running now. */
  running: boolean;
  imageFs?: { capacityBytes: number; availableBytes: number; usagePercent?: number };
  images: ImageInventoryItem[];
}

type Remover = (records: Map<string, ImageRecord>, r: ImageRecord, reason: 'age' | 'space', out: GcRunResult) => Promise<void>;

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

  /** An image GC is running (manual, periodic or for eviction). */
  running(): boolean {
    return this.inFlight !== undefined;
  }

  /** Periodic GC: max age, then the high/low thresholds. */
  garbageCollect(trigger = 'periodic'): Promise<GcRunResult> {
    return this.serialize(trigger, async (out) => {
      const now = this.deps.clock.now();
      await this.detect(now);
      await this.periodicPass(this.records, now, out, this.remove, false);
    });
  }

  /** Every unused image older than imageMinimumGCAge (the gc.images control and disk-pressure reclaim). */
  deleteUnusedImages(trigger = 'manual'): Promise<GcRunResult> {
    return this.serialize(trigger, async (out) => {
      const now = this.deps.clock.now();
      await this.detect(now);
      await this.freeSpace(this.records, Number.MAX_SAFE_INTEGER, now, out, this.remove);
    });
  }

  /**
   * Every image with what the next periodic GC and a manual GC would remove: the same passes as a GC, run over a
   * copy of the detected images with a remover that only notes its choice.
   */
  async inventory(): Promise<ImageInventory> {
    const now = this.deps.clock.now();
    const records = await this.scan(now);
    if (!this.inFlight) this.records = records;
    const dry = (chosen: Map<string, 'age' | 'space'>): Remover => async (recs, r, reason, out) => {
      recs.delete(r.id);
      chosen.set(r.id, reason);
      out.freedBytes += r.size;
    };
    const blank = (): GcRunResult => ({ removed: [], freedBytes: 0, errors: [], trigger: 'preview', time: '' });
    const periodic = new Map<string, 'age' | 'space'>();
    const fs = await this.periodicPass(new Map(records), now, blank(), dry(periodic), true);
    const manual = new Map<string, 'age' | 'space'>();
    await this.freeSpace(new Map(records), Number.MAX_SAFE_INTEGER, now, blank(), dry(manual));
    const images = [...records.values()].map((r): ImageInventoryItem => {
      const reason = periodic.get(r.id);
      const keep = keepReason(r, this.policy, now);
      return {
        id: r.id, tags: r.tags, digests: r.digests, sizeBytes: r.size, pinned: r.pinned, inUse: r.inUse, pods: r.pods,
        firstDetected: new Date(r.firstDetected).toISOString(), lastUsed: new Date(r.lastUsed).toISOString(),
        nextGc: reason ? { remove: true, reason, why: reason === 'age' ? 'unused for longer than imageMaximumGCAge' : 'least recently used while the image filesystem is above the high threshold' } : { remove: false, why: keep },
        manualGc: manual.has(r.id) ? { remove: true, why: 'unused and older than imageMinimumGCAge' } : { remove: false, why: keep },
      };
    });
    return { time: new Date(now).toISOString(), running: this.running(), ...(fs ? { imageFs: fs } : {}), images };
  }

  /** Max age, then the thresholds; returns the image filesystem it judged. dryRun: no log line, no event. */
  private async periodicPass(records: Map<string, ImageRecord>, now: number, out: GcRunResult, remove: Remover, dryRun: boolean) {
    for (const r of pastMaxAge(records.values(), this.policy, now)) await remove(records, r, 'age', out);
    const fs = await this.deps.imageFs();
    const need = bytesToFree(fs, this.policy);
    const judged = fs ? { ...fs, ...(need.usagePercent !== undefined ? { usagePercent: need.usagePercent } : {}) } : undefined;
    if (need.bytes <= 0) return judged;
    if (!dryRun) this.deps.logger.info('image GC: disk usage above the high threshold', { usagePercent: need.usagePercent, high: this.policy.highThresholdPercent, toFree: need.bytes });
    await this.freeSpace(records, need.bytes, now, out, remove);
    if (!dryRun && out.freedBytes < need.bytes) {
      this.deps.event?.('Warning', 'ImageGCFailed', `Failed to garbage collect required amount of images. Attempted to free ${need.bytes} bytes, but only found ${out.freedBytes} bytes eligible to free.`);
    }
    return judged;
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
    this.records = await this.scan(now);
  }

  /** The images the runtime has now, with first-detected / last-used carried over from the last scan. */
  private async scan(now: number): Promise<Map<string, ImageRecord>> {
    const [images, containers, sandbox] = await Promise.all([this.deps.cri.listImages({}), this.deps.cri.listContainers({}), this.sandboxImage()]);
    const used = new Map<string, Set<string>>();
    for (const c of containers.containers) {
      const pod = `${c.labels?.['io.kubernetes.pod.namespace'] ?? ''}/${c.labels?.['io.kubernetes.pod.name'] ?? ''}`;
      for (const k of [c.imageRef, c.imageId, c.image?.image]) if (k) used.set(k, (used.get(k) ?? new Set()).add(pod));
    }
    const next = new Map<string, ImageRecord>();
    for (const img of images.images) {
      const keys = [img.id, ...img.repoTags, ...img.repoDigests];
      const pods = new Set(keys.flatMap((k) => [...(used.get(k) ?? []), ...(used.get(k.replace(/:latest$/, '')) ?? [])]));
      const inUse = keys.some((k) => used.has(k) || used.has(k.replace(/:latest$/, '')));
      const prev = this.records.get(img.id);
      const pinned = img.pinned || keys.some((k) => HOST_IMAGE_REFS.includes(k) || sandbox.includes(k));
      next.set(img.id, {
        id: img.id,
        ref: img.repoTags[0] ?? img.repoDigests[0] ?? img.id,
        tags: img.repoTags,
        digests: img.repoDigests,
        size: Number(img.size),
        pinned,
        firstDetected: prev?.firstDetected ?? now,
        lastUsed: inUse ? now : (prev?.lastUsed ?? now),
        inUse,
        pods: [...pods].filter((p) => p !== '/').sort(),
      });
    }
    return next;
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

  /** LRU removal of candidates past imageMinimumGCAge until `bytes` are freed (failures move on to the next). */
  private async freeSpace(records: Map<string, ImageRecord>, bytes: number, now: number, out: GcRunResult, remove: Remover): Promise<void> {
    for (const r of spaceCandidates(records.values(), this.policy, now)) {
      if (out.freedBytes >= bytes) break;
      await remove(records, r, 'space', out);
    }
  }

  private readonly remove: Remover = async (records, r, reason, out) => {
    if (!records.has(r.id)) return;
    try {
      await this.deps.cri.removeImage({ image: { image: r.id } });
    } catch (err) {
      if (!isNotFound(err)) {
        out.errors.push(`${r.ref}: ${String(err)}`);
        this.deps.logger.warn('image GC: remove failed', { image: r.ref, err: String(err) });
        return;
      }
    }
    records.delete(r.id);
    out.removed.push(r.ref);
    out.freedBytes += r.size;
    this.deps.countRemoved?.(reason);
    this.deps.logger.info('image GC: removed image', { image: r.ref, reason, size: r.size });
  };
}
