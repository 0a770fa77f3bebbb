/** One registry pull: resolve the manifest, download config + layers (verified) into the blob store. */
import type { ArchiveImage } from './archive-import.ts';
import type { BlobStore } from './blob-store.ts';
import type { Descriptor } from './oci.ts';
import { formatReference, repoName, tagOf, type ImageReference } from './reference.ts';
import { RegistrySession } from './registry-client.ts';
import type { ImageFailure, PullOptions } from './types.ts';

export interface PullContext {
  blobs: BlobStore;
  fetch: typeof globalThis.fetch;
  insecure: readonly string[];
}

export type FetchResult = { ok: true; image: ArchiveImage & { repoDigest: string }; totalBytes: number } | ImageFailure;

const PARALLEL_LAYERS = 3;

export async function fetchImage(ctx: PullContext, ref: ImageReference, opts: PullOptions = {}): Promise<FetchResult> {
  const display = formatReference(ref);
  const progress = opts.onProgress;
  progress?.({ ref: display, phase: 'resolving', doneBytes: 0, totalBytes: 0 });
  const session = new RegistrySession(ref, ctx.fetch, ctx.insecure, opts.auth, opts.signal);
  const resolved = await session.resolve();
  if (!resolved.ok) return resolved;
  const { manifest, raw } = resolved;
  const stored = await ctx.blobs.writeBuffer(raw, manifest.digest);
  if (!stored.ok) return { ok: false, reason: 'Invalid', message: stored.message };
  const config = await session.fetchBlob(ctx.blobs, manifest.config);
  if (!config.ok) return config;
  const totalBytes = manifest.layers.reduce((s, l) => s + l.size, 0);
  const done = new Map<string, number>();
  const report = (layer: string, n: number) => {
    done.set(layer, n);
    const doneBytes = [...done.values()].reduce((a, b) => a + b, 0);
    progress?.({ ref: display, phase: 'downloading', layer, doneBytes, totalBytes });
  };
  const failure = await inPool(manifest.layers, PARALLEL_LAYERS, async (l: Descriptor) => {
    const r = await session.fetchBlob(ctx.blobs, l, (n) => report(l.digest, n));
    return r.ok ? undefined : r;
  });
  if (failure) return failure;
  const names = tagOf(ref);
  return {
    ok: true,
    totalBytes,
    image: {
      names: names !== undefined ? [names] : [],
      configDigest: manifest.config.digest,
      layers: manifest.layers.map((l) => l.digest),
      manifestDigest: manifest.digest,
      repoDigest: `${repoName(ref)}@${manifest.topDigest}`,
    },
  };
}

/** Runs `work` over items with at most `limit` at once; returns the first failure (others are still awaited). */
async function inPool<T, F>(items: T[], limit: number, work: (t: T) => Promise<F | undefined>): Promise<F | undefined> {
  let next = 0;
  let failure: F | undefined;
  const worker = async () => {
    while (next < items.length && failure === undefined) {
      const item = items[next++]!;
      const r = await work(item);
      if (r !== undefined && failure === undefined) failure = r;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return failure;
}
