/**
 * Reads images out of an OCI layout directory, an OCI archive tar, or a docker-archive tar (`docker save`,
 * `skopeo copy ... docker-archive:`), copying their blobs into the BlobStore (digests verified).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { BlobStore } from './blob-store.ts';
import { MEDIA, parseManifest, selectPlatform, type Descriptor } from './oci.ts';
import { normalizeReference } from './reference.ts';
import type { ImageFailure } from './types.ts';
import { hostEnv } from '../linux/host-env.ts';

const run = promisify(execFile);

export interface ArchiveImage {
  /** Normalized tags (may be empty). */
  names: string[];
  configDigest: string;
  /** Layer blob digests, bottom first. */
  layers: string[];
  manifestDigest?: string;
}

export type ArchiveResult = { ok: true; images: ArchiveImage[] } | ImageFailure;

const invalid = (message: string): ImageFailure => ({ ok: false, reason: 'Invalid', message });

export async function readArchive(src: string, blobs: BlobStore, tmpRoot: string): Promise<ArchiveResult> {
  const st = await fsp.stat(src).catch(() => null);
  if (st === null) return { ok: false, reason: 'NotFound', message: `import: ${src}: no such file or directory` };
  if (st.isDirectory()) return readLayoutOrDocker(src, blobs, false);
  const tmp = path.join(tmpRoot, `import-${randomBytes(6).toString('hex')}`);
  await fsp.mkdir(tmp, { recursive: true });
  try {
    await run('tar', ['-xf', src, '-C', tmp, '--no-same-owner', '--no-same-permissions'], { maxBuffer: 1 << 20, env: hostEnv() });
    return await readLayoutOrDocker(tmp, blobs, true);
  } catch (err) {
    return invalid(`import ${src}: ${err instanceof Error ? err.message.trim() : String(err)}`);
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

async function exists(p: string): Promise<boolean> {
  return (await fsp.stat(p).catch(() => null)) !== null;
}

/** Imports files once each; `move` (files in our own temp dir) renames them into the store instead of copying. */
class Importer {
  private readonly done = new Map<string, string>();
  constructor(readonly blobs: BlobStore, private readonly root: string, private readonly move: boolean) {}

  async file(file: string, expected?: string): Promise<{ ok: true; digest: string } | { ok: false; message: string }> {
    const key = await canonical(file);
    if (key !== this.root && !key.startsWith(this.root + path.sep)) return { ok: false, message: `${file} points outside the archive` };
    const seen = this.done.get(key);
    if (seen !== undefined) {
      if (expected !== undefined && expected !== seen) return { ok: false, message: `digest mismatch: expected ${expected}, got ${seen}` };
      return { ok: true, digest: seen };
    }
    const w = await this.blobs.importFile(key, expected, this.move);
    if (w.ok) this.done.set(key, w.digest);
    return w;
  }
}

/** The real path of a file; for a symlink whose target we already moved away, the target's former path. */
async function canonical(file: string): Promise<string> {
  try {
    return await fsp.realpath(file);
  } catch {
    const link = await fsp.readlink(file).catch(() => undefined);
    return link === undefined ? file : path.resolve(path.dirname(file), link);
  }
}

async function readLayoutOrDocker(dir: string, blobs: BlobStore, move: boolean): Promise<ArchiveResult> {
  const importer = new Importer(blobs, await fsp.realpath(dir), move);
  if (await exists(path.join(dir, 'manifest.json'))) return readDockerArchive(dir, importer);
  if (await exists(path.join(dir, 'index.json'))) return readOciLayout(dir, importer);
  return invalid(`import ${dir}: neither an OCI layout (index.json) nor a docker archive (manifest.json)`);
}

interface DockerEntry {
  Config?: unknown;
  RepoTags?: unknown;
  Layers?: unknown;
}

/** Inside `dir`, refusing absolute paths and `..`. */
function inside(dir: string, rel: string): string {
  const p = path.resolve(dir, rel);
  if (p !== dir && !p.startsWith(dir + path.sep)) throw new Error(`path ${rel} escapes the archive`);
  return p;
}

async function readDockerArchive(dir: string, blobs: Importer): Promise<ArchiveResult> {
  let entries: DockerEntry[];
  try {
    entries = JSON.parse(await fsp.readFile(path.join(dir, 'manifest.json'), 'utf8')) as DockerEntry[];
    if (!Array.isArray(entries)) return invalid('docker archive: manifest.json is not a list');
  } catch (err) {
    return invalid(`docker archive: bad manifest.json: ${String(err)}`);
  }
  const images: ArchiveImage[] = [];
  for (const e of entries) {
    if (typeof e.Config !== 'string' || !Array.isArray(e.Layers)) return invalid('docker archive: entry without Config/Layers');
    const config = await blobs.file(inside(dir, e.Config));
    if (!config.ok) return invalid(`docker archive: config: ${config.message}`);
    const layers: string[] = [];
    for (const l of e.Layers) {
      if (typeof l !== 'string') return invalid('docker archive: bad layer path');
      const w = await blobs.file(inside(dir, l));
      if (!w.ok) return invalid(`docker archive: layer ${l}: ${w.message}`);
      layers.push(w.digest);
    }
    const tags = Array.isArray(e.RepoTags) ? e.RepoTags.filter((t): t is string => typeof t === 'string') : [];
    images.push({ names: normalizeAll(tags), configDigest: config.digest, layers });
  }
  return { ok: true, images };
}

function normalizeAll(names: string[]): string[] {
  const out: string[] = [];
  for (const n of names) {
    const norm = normalizeReference(n);
    if (norm !== undefined && !norm.includes('@') && !out.includes(norm)) out.push(norm);
  }
  return out;
}

function layoutBlob(dir: string, digest: string): string {
  const hex = /^sha256:([a-f0-9]{64})$/.exec(digest)?.[1];
  if (hex === undefined) throw new Error(`unsupported digest ${digest}`);
  return path.join(dir, 'blobs', 'sha256', hex);
}

async function readOciLayout(dir: string, blobs: Importer): Promise<ArchiveResult> {
  const index = parseManifest(await fsp.readFile(path.join(dir, 'index.json')), MEDIA.ociIndex);
  if ('error' in index || index.kind !== 'index') return invalid(`OCI layout: bad index.json`);
  const images: ArchiveImage[] = [];
  try {
    for (const desc of index.manifests) {
      const name = desc.annotations?.['io.containerd.image.name'] ?? desc.annotations?.['org.opencontainers.image.ref.name'];
      const img = await importManifest(dir, blobs, desc);
      if (!img.ok) return img;
      img.image.names = normalizeAll(name !== undefined ? [name] : []);
      images.push(img.image);
    }
  } catch (err) {
    return invalid(`OCI layout: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { ok: true, images };
}

async function importManifest(dir: string, blobs: Importer, desc: Descriptor): Promise<{ ok: true; image: ArchiveImage } | ImageFailure> {
  const body = await fsp.readFile(layoutBlob(dir, desc.digest));
  const parsed = parseManifest(body, desc.mediaType);
  if ('error' in parsed) return invalid(`OCI layout: ${desc.digest}: ${parsed.error}`);
  if (parsed.kind === 'index') {
    const chosen = selectPlatform(parsed.manifests);
    if (!chosen) return { ok: false, reason: 'NotFound', message: `OCI layout: no manifest for this platform in ${desc.digest}` };
    return importManifest(dir, blobs, chosen);
  }
  const m = await blobs.blobs.writeBuffer(body, desc.digest);
  if (!m.ok) return invalid(`OCI layout: manifest: ${m.message}`);
  const config = await blobs.file(layoutBlob(dir, parsed.config.digest), parsed.config.digest);
  if (!config.ok) return invalid(`OCI layout: config: ${config.message}`);
  const layers: string[] = [];
  for (const l of parsed.layers) {
    const w = await blobs.file(layoutBlob(dir, l.digest), l.digest);
    if (!w.ok) return invalid(`OCI layout: layer ${l.digest}: ${w.message}`);
    layers.push(l.digest);
  }
  return { ok: true, image: { names: [], configDigest: config.digest, layers, manifestDigest: desc.digest } };
}
