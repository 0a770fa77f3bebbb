/**
 * The embedded runtime's image store. Layout under rootDir:
 *   blobs/sha256/<hex>   content-addressed manifests, configs, layers
 *   rootfs/<hex>         unpacked, flattened rootfs per image id (read-only by convention)
 *   index.json           images (tags, digests, config, layers, usage), written atomically
 *   tmp/                 downloads and unpacks in progress (wiped at init)
 * What it answers from the images it holds (list, status, rootfs, config, usage, the lookup by tag, digest or id):
 * image-lookup.ts (ImageLookup, which ImageStore extends).
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { readArchive, type ArchiveImage } from './archive-import.ts';
import { HOST_IMAGE_ID, hostImageRecord } from './host-image.ts';
import { ImageLookup, hex, toRecord } from './image-lookup.ts';
import { blobsOf, storeOverhead } from './image-sizes.ts';
import { parseConfig, toImageConfig } from './oci.ts';
import { fetchImage } from './pull.ts';
import { registryFetch } from './http-fetch.ts';
import { formatReference, parseReference, repoName } from './reference.ts';
import { loadIndex, saveIndex, type StoredImage } from './store-index.ts';
import { HOST_IMAGE_REF } from './types.ts';
import type { ImageFailure, ImageRecord, ImageStoreApi, ImageStoreConfig } from './types.ts';
import type { ImageStoreDeps, ImportResult, PullOptions, PullResult } from './types.ts';
import { unpackImage } from './unpack.ts';

type CommitInput = ArchiveImage & { repoDigest?: string };

export class ImageStore extends ImageLookup implements ImageStoreApi {
  private readonly pulls = new Map<string, Promise<PullResult>>();
  private readonly unpacks = new Map<string, Promise<ImageFailure | undefined>>();
  private saving: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private gcPending = false;
  private readonly indexFile: string;

  constructor(deps: ImageStoreDeps, private readonly cfg: ImageStoreConfig = {}) {
    super(deps);
    this.indexFile = path.join(deps.rootDir, 'index.json');
  }

  async init(): Promise<void> {
    await fsp.rm(this.tmpDir, { recursive: true, force: true });
    await fsp.mkdir(this.rootfsDir, { recursive: true });
    await this.blobs.init();
    this.images.clear();
    for (const img of await this.loadIndexOrReset()) this.images.set(img.id, img);
    const live = new Set([...this.images.keys()].map(hex));
    for (const d of await fsp.readdir(this.rootfsDir)) {
      if (!live.has(d)) await fsp.rm(path.join(this.rootfsDir, d), { recursive: true, force: true });
    }
    await this.collectBlobs();
    this.overhead = await storeOverhead(this.deps.rootDir);
    this.deps.logger.info('image store ready', { rootDir: this.deps.rootDir, images: this.images.size });
  }

  /** An unreadable index is moved aside (the store starts empty) rather than keeping the runtime down. */
  private async loadIndexOrReset(): Promise<StoredImage[]> {
    try {
      return await loadIndex(this.indexFile);
    } catch (err) {
      const aside = `${this.indexFile}.corrupt-${(this.deps.now ?? Date.now)()}`;
      this.deps.logger.error('image index unreadable, starting empty', { file: this.indexFile, movedTo: aside, err: String(err) });
      await fsp.rename(this.indexFile, aside);
      return [];
    }
  }

  pull(ref: string, opts: PullOptions = {}): Promise<PullResult> {
    const parsed = parseReference(ref);
    if (!parsed.ok) return Promise.resolve({ ok: false, reason: 'Invalid', message: parsed.message });
    const key = formatReference(parsed.ref);
    if (key === HOST_IMAGE_REF) return Promise.resolve({ ok: true, image: hostImageRecord() });
    const running = this.pulls.get(key);
    if (running) return running;
    const p = this.writing(() => this.doPull(key, parsed.ref, opts)).finally(() => this.pulls.delete(key));
    this.pulls.set(key, p);
    return p;
  }

  private async doPull(key: string, ref: Parameters<typeof fetchImage>[1], opts: PullOptions): Promise<PullResult> {
    const now = this.deps.now ?? Date.now;
    const started = now();
    const fetched = await fetchImage({ blobs: this.blobs, fetch: this.deps.fetch ?? registryFetch, insecure: this.cfg.insecureRegistries ?? [] }, ref, opts);
    if (!fetched.ok) {
      this.deps.logger.warn('image pull failed', { ref: key, reason: fetched.reason, message: fetched.message });
      return fetched;
    }
    const committed = await this.commit(fetched.image, opts);
    if (!committed.ok) return committed;
    opts.onProgress?.({ ref: key, phase: 'done', doneBytes: fetched.totalBytes, totalBytes: fetched.totalBytes });
    this.deps.logger.info('image pulled', { ref: key, id: committed.image.id, ms: now() - started });
    return committed;
  }

  /** Runs a pull/import; blob GC waits until none is in flight (they own blobs not yet in the index). */
  private async writing<T>(op: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await op();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0 && this.gcPending) await this.collectBlobs();
    }
  }

  importArchive(file: string, opts: { tag?: string } = {}): Promise<ImportResult> {
    return this.writing(() => this.doImport(file, opts));
  }

  private async doImport(file: string, opts: { tag?: string }): Promise<ImportResult> {
    let extra: string | undefined;
    if (opts.tag !== undefined) {
      const t = parseReference(opts.tag);
      if (!t.ok || t.ref.tag === undefined) return { ok: false, reason: 'Invalid', message: `bad tag "${opts.tag}"` };
      extra = `${repoName(t.ref)}:${t.ref.tag}`;
    }
    const read = await readArchive(file, this.blobs, this.tmpDir);
    if (!read.ok) return read;
    if (extra !== undefined && read.images.length !== 1) {
      return { ok: false, reason: 'Invalid', message: `--tag needs exactly one image, archive has ${read.images.length}` };
    }
    const images: ImageRecord[] = [];
    for (const img of read.images) {
      const names = extra !== undefined ? [...img.names, extra] : img.names;
      const r = await this.commit({ ...img, names: [...new Set(names)] });
      if (!r.ok) return r;
      images.push(r.image);
    }
    this.deps.logger.info('images imported', { file, ids: images.map((i) => i.id) });
    return { ok: true, images };
  }

  /** Records an image (unpacking it if new), moving its tags away from other images. */
  private async commit(input: CommitInput, opts: PullOptions = {}): Promise<{ ok: true; image: ImageRecord } | ImageFailure> {
    const id = input.configDigest;
    const names = input.names.filter((n) => n !== HOST_IMAGE_REF); // the reserved name is never shadowed
    if (!this.images.has(id)) {
      let pending = this.unpacks.get(id);
      if (!pending) {
        pending = this.unpackNew(input, opts).finally(() => this.unpacks.delete(id));
        this.unpacks.set(id, pending);
      }
      const failure = await pending;
      if (failure) return failure;
    }
    const img = this.images.get(id);
    if (!img) return { ok: false, reason: 'Invalid', message: `image ${id} vanished during commit` };
    const orphans: StoredImage[] = [];
    for (const other of this.images.values()) {
      if (other.id === id) continue;
      other.repoTags = other.repoTags.filter((t) => !names.includes(t));
      if (other.repoTags.length === 0 && other.repoDigests.length === 0) orphans.push(other);
    }
    img.repoTags = [...new Set([...img.repoTags, ...names])];
    if (input.repoDigest !== undefined) img.repoDigests = [...new Set([...img.repoDigests, input.repoDigest])];
    for (const o of orphans) this.images.delete(o.id);
    await this.persist();
    for (const o of orphans) await this.dispose(o);
    return { ok: true, image: toRecord(img, this.sizes()) };
  }

  private async unpackNew(input: CommitInput, opts: PullOptions): Promise<ImageFailure | undefined> {
    const id = input.configDigest;
    const raw = parseConfig(await this.blobs.read(id));
    if ('error' in raw) return { ok: false, reason: 'Invalid', message: `image ${id}: ${raw.error}` };
    const layers = [];
    for (const d of input.layers) layers.push({ digest: d, file: this.blobs.path(d), size: await this.blobs.size(d) });
    const total = layers.reduce((s, l) => s + l.size, 0);
    const ref = input.names[0] ?? id;
    const onLayer = (layer: string, done: number) => opts.onProgress?.({ ref, phase: 'unpacking', layer, doneBytes: done, totalBytes: total });
    const r = await unpackImage(path.join(this.rootfsDir, hex(id)), this.tmpDir, layers, onLayer, opts.signal);
    if (!r.ok) return r;
    const stored: StoredImage = { id, repoTags: [], repoDigests: [], size: total, config: toImageConfig(raw), layers: input.layers, usage: r.usage };
    if (input.manifestDigest !== undefined) stored.manifest = input.manifestDigest;
    this.images.set(id, stored);
    return undefined;
  }

  async remove(ref: string): Promise<boolean> {
    const id = this.resolveId(ref);
    if (id === undefined || id === HOST_IMAGE_ID) return false;
    const img = this.images.get(id);
    if (!img) return false;
    this.images.delete(id);
    await this.persist();
    await this.dispose(img);
    this.deps.logger.info('image removed', { ref, id });
    return true;
  }

  /** Deletes an image's rootfs and the blobs no remaining image references. */
  private async dispose(img: StoredImage): Promise<void> {
    await fsp.rm(path.join(this.rootfsDir, hex(img.id)), { recursive: true, force: true });
    await this.collectBlobs();
  }

  private async collectBlobs(): Promise<void> {
    const used = new Set([...this.images.values()].flatMap(blobsOf));
    if (this.inFlight > 0) {
      this.gcPending = true;
      return;
    }
    this.gcPending = false;
    for (const d of await this.blobs.list()) if (!used.has(d)) await this.blobs.remove(d);
  }

  private persist(): Promise<void> {
    const snapshot = [...this.images.values()].map((i) => structuredClone(i));
    this.saving = this.saving.catch(() => {}).then(async () => {
      await saveIndex(this.indexFile, snapshot);
      this.overhead = await storeOverhead(this.deps.rootDir);
    });
    return this.saving;
  }
}
