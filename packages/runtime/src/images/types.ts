/**
 * Image store of the embedded runtime: the types the CRI ImageService (and the container code) code against.
 * Implementation: `image-store.ts` (class ImageStore). Expected failures are values, never exceptions.
 */

/** The reserved image: the host's root filesystem, read-only, always present, pinned, never removed. */
export const HOST_IMAGE_REF = 'nodelet.local/host:latest';

/** Minimal structural logger (compatible with @nodelet/core's Logger; runtime imports nothing from core). */
export interface ImageLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Mirrors CRI's Image message. */
export interface ImageRecord {
  /** "sha256:<hex>" of the image config blob (the host image: sha256 of a fixed string). */
  id: string;
  /** Normalized, e.g. "docker.io/library/busybox:latest". */
  repoTags: string[];
  /** e.g. "127.0.0.1:5000/busybox@sha256:<manifest digest>". */
  repoDigests: string[];
  /** What removing the image frees: its unpacked rootfs + the blobs no other image uses (image-sizes.ts); 0 for the host image. */
  size: number;
  /** Set when the config's User is numeric (user part only, before ':'). */
  uid?: number;
  /** Set when the config's User is a name. */
  username?: string;
  pinned: boolean;
}

/** The parts of the OCI image config a runtime needs. Absent fields are empty arrays / strings. */
export interface ImageConfig {
  entrypoint: string[];
  cmd: string[];
  /** "KEY=value" strings, as in the OCI config. */
  env: string[];
  workingDir: string;
  user: string;
  stopSignal?: string;
  labels: Record<string, string>;
}

export interface RegistryAuth {
  username?: string;
  password?: string;
  /** base64("user:pass"), as in a docker config.json / CRI AuthConfig.auth. */
  auth?: string;
  identityToken?: string;
  /** A bearer token to use directly. */
  registryToken?: string;
}

export type PullPhase = 'resolving' | 'downloading' | 'unpacking' | 'done';

export interface PullProgress {
  ref: string;
  phase: PullPhase;
  /** Layer digest while downloading/unpacking a layer. */
  layer?: string;
  doneBytes: number;
  totalBytes: number;
}

export interface PullOptions {
  auth?: RegistryAuth;
  onProgress?: (p: PullProgress) => void;
  signal?: AbortSignal;
}

export type ImageFailureReason = 'NotFound' | 'Unauthorized' | 'Unreachable' | 'Invalid';
export interface ImageFailure {
  ok: false;
  reason: ImageFailureReason;
  message: string;
}

export type PullResult = { ok: true; image: ImageRecord } | ImageFailure;
export type ImportResult = { ok: true; images: ImageRecord[] } | ImageFailure;

export interface ImageFsInfo {
  /** Directory holding blobs + unpacked rootfs (CRI FilesystemUsage.fsId.mountpoint). */
  mountpoint: string;
  usedBytes: number;
  inodesUsed: number;
}

export interface ImageStoreDeps {
  /** Everything lives under here: blobs/, rootfs/, index.json. */
  rootDir: string;
  logger: ImageLogger;
  /** Injected fetch (defaults to registryFetch, http-fetch.ts: node:http, no bad-port list). */
  fetch?: typeof globalThis.fetch;
  /** Wall clock in ms for last-used times (defaults to Date.now). */
  now?: () => number;
}

export interface ImageStoreConfig {
  /** host[:port] served over plain HTTP. localhost / 127.0.0.1 / [::1] are always plain HTTP. */
  insecureRegistries?: string[];
}

/** What the CRI server sees. `new ImageStore(deps, config)` does no I/O; call `init()` once before use. */
export interface ImageStoreApi {
  init(): Promise<void>;
  /** All images, the host image first. */
  list(): ImageRecord[];
  /** By tag ("busybox" normalizes), by repo digest, by id ("sha256:..."), or by a unique id prefix. */
  status(ref: string): ImageRecord | undefined;
  pull(ref: string, opts?: PullOptions): Promise<PullResult>;
  /**
   * OCI layout directory, OCI archive tar, or docker-archive tar. Names come from the archive
   * (RepoTags / io.containerd.image.name / org.opencontainers.image.ref.name); `opts.tag` adds one.
   */
  importArchive(path: string, opts?: { tag?: string }): Promise<ImportResult>;
  /** Removes the image under all its tags. false when absent or when it is the host image. */
  remove(ref: string): Promise<boolean>;
  /** Read-only rootfs directory; "/" for the host image; undefined if the id is unknown. */
  rootfsOf(imageId: string): string | undefined;
  /** undefined if the id is unknown. */
  config(imageId: string): ImageConfig | undefined;
  /** From usage recorded at pull/import time (no disk walk); equals a disk walk of the store when idle. */
  fsInfo(): ImageFsInfo;
  /** Records a use (last-used time, for GC). */
  touch(imageId: string): void;
}
