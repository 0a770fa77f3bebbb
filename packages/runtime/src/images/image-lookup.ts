/**
 * What the embedded runtime's image store (image-store.ts) answers from the images it holds: the list, an image's
 * status, rootfs and config, the store's file system usage and last-used times, and the lookup behind them (a tag,
 * repo digest, id or unique id prefix → the image id). The store's writes (pull, import, removal, blob GC, the
 * index) are ImageStore's, which extends ImageLookup.
 */
import * as path from 'node:path';
import { BlobStore } from './blob-store.ts';
import { HOST_IMAGE_CONFIG, HOST_IMAGE_ID, hostImageRecord } from './host-image.ts';
import { blobsOf, reclaimableBytes, type Usage } from './image-sizes.ts';
import { userOf } from './oci.ts';
import { looksLikeId, parseReference, repoName } from './reference.ts';
import type { StoredImage } from './store-index.ts';
import { HOST_IMAGE_REF } from './types.ts';
import type { ImageConfig, ImageFsInfo, ImageRecord, ImageStoreDeps } from './types.ts';

export abstract class ImageLookup {
  protected readonly images = new Map<string, StoredImage>();
  protected readonly blobs: BlobStore;
  protected overhead: Usage = { bytes: 0, inodes: 0 };
  protected readonly rootfsDir: string;
  protected readonly tmpDir: string;

  constructor(protected readonly deps: ImageStoreDeps) {
    this.rootfsDir = path.join(deps.rootDir, 'rootfs');
    this.tmpDir = path.join(deps.rootDir, 'tmp');
    this.blobs = new BlobStore(path.join(deps.rootDir, 'blobs'), this.tmpDir);
  }

  list(): ImageRecord[] {
    const sizes = this.sizes();
    return [hostImageRecord(), ...[...this.images.values()].map((i) => toRecord(i, sizes))];
  }

  status(ref: string): ImageRecord | undefined {
    const id = this.resolveId(ref);
    if (id === HOST_IMAGE_ID) return hostImageRecord();
    const img = id !== undefined ? this.images.get(id) : undefined;
    return img ? toRecord(img, this.sizes()) : undefined;
  }

  /** Per image: the bytes removing it would free (its rootfs + the blobs only it references). */
  protected sizes(): Map<string, number> {
    const footprints = [...this.images.values()].map((i) => ({ id: i.id, blobs: blobsOf(i), rootfsBytes: i.usage.bytes }));
    return reclaimableBytes(footprints, (d) => this.blobs.allocatedOf(d));
  }

  /** Image id for a tag, repo digest, id or unique id prefix (≥ 6 hex). */
  protected resolveId(ref: string): string | undefined {
    const r = ref.trim();
    if (r === HOST_IMAGE_ID) return HOST_IMAGE_ID;
    if (looksLikeId(r)) {
      const id = r.startsWith('sha256:') ? r : `sha256:${r}`;
      if (this.images.has(id)) return id;
    }
    const parsed = parseReference(r);
    if (parsed.ok) {
      const p = parsed.ref;
      if (p.digest === undefined && `${repoName(p)}:${p.tag}` === HOST_IMAGE_REF) return HOST_IMAGE_ID;
      const key = p.digest !== undefined ? `${repoName(p)}@${p.digest}` : `${repoName(p)}:${p.tag}`;
      for (const img of this.images.values()) {
        if ((p.digest !== undefined ? img.repoDigests : img.repoTags).includes(key)) return img.id;
      }
    }
    const prefix = /^(?:sha256:)?([a-f0-9]{6,63})$/.exec(r)?.[1];
    if (prefix !== undefined) {
      const hits = [...this.images.keys()].filter((id) => hex(id).startsWith(prefix));
      if (hits.length === 1) return hits[0];
    }
    return undefined;
  }

  rootfsOf(imageId: string): string | undefined {
    const id = this.resolveId(imageId);
    if (id === HOST_IMAGE_ID) return '/';
    return id !== undefined && this.images.has(id) ? path.join(this.rootfsDir, hex(id)) : undefined;
  }

  config(imageId: string): ImageConfig | undefined {
    const id = this.resolveId(imageId);
    if (id === HOST_IMAGE_ID) return structuredClone(HOST_IMAGE_CONFIG);
    const img = id !== undefined ? this.images.get(id) : undefined;
    return img ? structuredClone(img.config) : undefined;
  }

  /** Tracked usage that equals a disk walk of rootDir while no pull or import is in flight. */
  fsInfo(): ImageFsInfo {
    const b = this.blobs.usage();
    const images = [...this.images.values()];
    return {
      mountpoint: this.deps.rootDir,
      usedBytes: b.bytes + this.overhead.bytes + images.reduce((n, i) => n + i.usage.bytes, 0),
      inodesUsed: b.count + this.overhead.inodes + images.reduce((n, i) => n + i.usage.inodes, 0),
    };
  }

  touch(imageId: string): void {
    const id = this.resolveId(imageId);
    const img = id !== undefined ? this.images.get(id) : undefined;
    if (img) img.lastUsed = (this.deps.now ?? Date.now)();
  }
}

export function hex(id: string): string {
  return id.replace(/^sha256:/, '');
}

export function toRecord(img: StoredImage, sizes: Map<string, number>): ImageRecord {
  const size = sizes.get(img.id) ?? img.size;
  return { id: img.id, repoTags: [...img.repoTags], repoDigests: [...img.repoDigests], size, ...userOf(img.config.user), pinned: false };
}
