/** The fake runtime's image store: the host image always present, pulls that succeed unless told otherwise. */
import { createHash } from 'node:crypto';
import type { FilesystemUsage__Output, Image__Output } from '../proto-types.ts';
import { notFound } from './fake-base.ts';
import { HOST_IMAGE, makeImage, normalizeRef } from './fake-state.ts';

export class FakeImageStore {
  /** Images by id. */
  readonly byId = new Map<string, Image__Output>();
  /** References whose pull fails NOT_FOUND. */
  readonly missing = new Set<string>();

  constructor(
    extra: string[],
    private readonly pullAnything: boolean,
  ) {
    for (const ref of [HOST_IMAGE, ...extra]) this.add(ref);
  }

  add(ref: string, size = 1024 * 1024): Image__Output {
    const tag = normalizeRef(ref);
    const existing = this.find(tag);
    if (existing) return existing;
    const img = makeImage(tag, `sha256:${createHash('sha256').update(tag).digest('hex')}`, size);
    this.byId.set(img.id, img);
    return img;
  }

  /** By tag (`:latest` implied), id, or repo digest. */
  find(ref: string): Image__Output | undefined {
    if (!ref) return undefined;
    const tag = normalizeRef(ref);
    for (const img of this.byId.values()) {
      if (img.id === ref || img.repoTags.includes(tag) || img.repoDigests.includes(ref)) return img;
    }
    return undefined;
  }

  pull(ref: string): string {
    const tag = normalizeRef(ref);
    const have = this.find(tag);
    if (have) return have.id;
    if (this.missing.has(tag) || this.missing.has(ref) || !this.pullAnything) {
      throw notFound('PullImage', `failed to resolve reference "${tag}": ${tag}`);
    }
    return this.add(tag).id;
  }

  list(want: string | undefined): Image__Output[] {
    if (!want) return [...this.byId.values()];
    const hit = this.find(want);
    return hit ? [hit] : [];
  }

  /** Removes the image under all its tags; absent is fine; the host image stays. */
  remove(ref: string): void {
    const img = this.find(ref);
    if (img && !img.repoTags.includes(HOST_IMAGE)) this.byId.delete(img.id);
  }

  usage(nowNs: number, mountpoint: string): FilesystemUsage__Output {
    const used = [...this.byId.values()].reduce((n, i) => n + i.size, 0);
    return { timestamp: nowNs, fsId: { mountpoint }, usedBytes: { value: used }, inodesUsed: { value: this.byId.size } };
  }
}
