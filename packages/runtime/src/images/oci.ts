/** OCI / Docker v2 manifest and config shapes, validation, platform selection, config → ImageConfig. */
import type { ImageConfig } from './types.ts';

export const MEDIA = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  ociConfig: 'application/vnd.oci.image.config.v1+json',
  dockerConfig: 'application/vnd.docker.container.image.v1+json',
} as const;

export const MANIFEST_ACCEPT = [MEDIA.ociIndex, MEDIA.ociManifest, MEDIA.dockerList, MEDIA.dockerManifest].join(', ');

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os?: string; architecture?: string; variant?: string };
  annotations?: Record<string, string>;
}

export type ParsedManifest =
  | { kind: 'index'; manifests: Descriptor[] }
  | { kind: 'manifest'; config: Descriptor; layers: Descriptor[] };

const DIGEST = /^sha256:[a-f0-9]{64}$/;

function isDescriptor(d: unknown): d is Descriptor {
  if (typeof d !== 'object' || d === null) return false;
  const o = d as Record<string, unknown>;
  return typeof o.digest === 'string' && DIGEST.test(o.digest) && typeof o.size === 'number';
}

/** Parses a manifest or index body; the media type comes from the body, else from the HTTP content type. */
export function parseManifest(body: Buffer | string, contentType?: string): ParsedManifest | { error: string } {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(body.toString()) as Record<string, unknown>;
  } catch {
    return { error: 'manifest is not JSON' };
  }
  const mt = typeof doc.mediaType === 'string' ? doc.mediaType : (contentType ?? '').split(';')[0]!.trim();
  if (doc.schemaVersion !== 2) return { error: `unsupported manifest schema version ${String(doc.schemaVersion)}` };
  if (mt === MEDIA.ociIndex || mt === MEDIA.dockerList || (mt === '' && Array.isArray(doc.manifests))) {
    const manifests = doc.manifests;
    if (!Array.isArray(manifests) || !manifests.every(isDescriptor)) return { error: 'invalid index' };
    return { kind: 'index', manifests };
  }
  const config = doc.config;
  const layers = doc.layers;
  if (!isDescriptor(config) || !Array.isArray(layers) || !layers.every(isDescriptor)) {
    return { error: `invalid manifest (media type "${mt}")` };
  }
  return { kind: 'manifest', config, layers };
}

/** Docker/OCI architecture name of this host. */
export function hostArch(): string {
  const map: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64' };
  return map[process.arch] ?? process.arch;
}

/** Picks linux/<arch> from an index; entries without a platform match as a fallback. */
export function selectPlatform(manifests: Descriptor[], arch = hostArch()): Descriptor | undefined {
  const usable = manifests.filter((m) => m.annotations?.['vnd.docker.reference.type'] !== 'attestation-manifest');
  return (
    usable.find((m) => m.platform?.os === 'linux' && m.platform.architecture === arch) ??
    usable.find((m) => m.platform === undefined)
  );
}

export interface RawConfig {
  architecture?: string;
  os?: string;
  config?: {
    Entrypoint?: string[] | null;
    Cmd?: string[] | null;
    Env?: string[] | null;
    WorkingDir?: string;
    User?: string;
    StopSignal?: string;
    Labels?: Record<string, string> | null;
  };
  rootfs?: { type?: string; diff_ids?: string[] };
}

export function parseConfig(body: Buffer | string): RawConfig | { error: string } {
  try {
    const doc = JSON.parse(body.toString()) as unknown;
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { error: 'image config is not an object' };
    return doc as RawConfig;
  } catch {
    return { error: 'image config is not JSON' };
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function toImageConfig(raw: RawConfig): ImageConfig {
  const c = raw.config ?? {};
  const out: ImageConfig = {
    entrypoint: strings(c.Entrypoint),
    cmd: strings(c.Cmd),
    env: strings(c.Env),
    workingDir: typeof c.WorkingDir === 'string' ? c.WorkingDir : '',
    user: typeof c.User === 'string' ? c.User : '',
    labels: c.Labels && typeof c.Labels === 'object' ? { ...c.Labels } : {},
  };
  if (typeof c.StopSignal === 'string' && c.StopSignal !== '') out.stopSignal = c.StopSignal;
  return out;
}

/** CRI semantics: the user part of "user[:group]"; numeric → uid, otherwise username. */
export function userOf(user: string): { uid?: number; username?: string } {
  const u = user.split(':')[0] ?? '';
  if (u === '') return {};
  if (/^\d+$/.test(u)) return { uid: Number(u) };
  return { username: u };
}
