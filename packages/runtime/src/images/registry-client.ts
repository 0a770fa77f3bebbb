/**
 * OCI distribution v2 client for one repository: resolve a tag/digest to a platform manifest, fetch blobs.
 * Plain HTTP for loopback and insecure registries, HTTPS otherwise. Failures are values.
 */
import type { BlobStore } from './blob-store.ts';
import { sha256 } from './blob-store.ts';
import { MANIFEST_ACCEPT, parseManifest, selectPlatform, type Descriptor, type ParsedManifest } from './oci.ts';
import { formatReference, isPlainHttp, registryHost, type ImageReference } from './reference.ts';
import { basicHeader, fetchToken, parseChallenge } from './registry-auth.ts';
import type { ImageFailure, RegistryAuth } from './types.ts';

export interface ResolvedManifest {
  /** Digest of the platform manifest. */
  digest: string;
  /** Digest the reference resolved to (the index for multi-platform images): what repoDigests carry. */
  topDigest: string;
  config: Descriptor;
  layers: Descriptor[];
}

const MAX_MANIFEST = 8 << 20;

export class RegistrySession {
  private authorization: string | undefined;
  private triedAuth = false;
  readonly base: string;
  readonly display: string;

  constructor(
    private readonly ref: ImageReference,
    private readonly fetchFn: typeof globalThis.fetch,
    insecure: readonly string[],
    private readonly auth?: RegistryAuth,
    private readonly signal?: AbortSignal,
  ) {
    const scheme = isPlainHttp(ref.domain, insecure) ? 'http' : 'https';
    this.base = `${scheme}://${registryHost(ref.domain)}/v2/${ref.path}`;
    this.display = formatReference(ref);
    if (auth?.registryToken) this.authorization = `Bearer ${auth.registryToken}`;
  }

  /** Messages follow containerd's wording without its outer "failed to pull and unpack image" (the CRI layer adds it). */
  private fail(reason: ImageFailure['reason'], detail: string): ImageFailure {
    return { ok: false, reason, message: detail };
  }

  /** GET with auth: on a 401 challenge, gets a token (or uses basic credentials) and retries once. */
  private async get(url: string, context: string, accept?: string): Promise<{ ok: true; res: Response } | ImageFailure> {
    for (;;) {
      const headers: Record<string, string> = {};
      if (accept !== undefined) headers.accept = accept;
      if (this.authorization !== undefined) headers.authorization = this.authorization;
      let res: Response;
      try {
        res = await this.fetchFn(url, { headers, redirect: 'follow', ...(this.signal ? { signal: this.signal } : {}) });
      } catch (err) {
        return this.fail('Unreachable', `${context}: failed to do request: GET "${url}": ${causeOf(err)}`);
      }
      if (res.status !== 401 || this.triedAuth) return { ok: true, res };
      this.triedAuth = true;
      const challenge = parseChallenge(res.headers.get('www-authenticate'));
      await res.body?.cancel();
      const authFailure = await this.authenticate(challenge, url, context);
      if (authFailure) return authFailure;
    }
  }

  private async authenticate(challenge: ReturnType<typeof parseChallenge>, url: string, context: string): Promise<ImageFailure | undefined> {
    if (challenge?.scheme === 'basic') {
      const basic = basicHeader(this.auth);
      if (basic === undefined) return this.fail('Unauthorized', `${context}: GET "${url}": 401 Unauthorized (credentials required)`);
      this.authorization = basic;
      return undefined;
    }
    if (challenge?.scheme !== 'bearer') return this.fail('Unauthorized', `${context}: GET "${url}": 401 Unauthorized`);
    try {
      const t = await fetchToken(this.fetchFn, challenge, `repository:${this.ref.path}:pull`, this.auth, this.signal);
      if (!t.ok) return this.fail(t.status === 0 ? 'Invalid' : 'Unauthorized', `${context}: failed to authorize: ${t.message}`);
      this.authorization = `Bearer ${t.token}`;
      return undefined;
    } catch (err) {
      return this.fail('Unreachable', `${context}: failed to authorize: ${causeOf(err)}`);
    }
  }

  /** Resolves the reference (tag or digest) to a linux/<host arch> image manifest. */
  async resolve(arch?: string): Promise<{ ok: true; manifest: ResolvedManifest; raw: Buffer } | ImageFailure> {
    const first = await this.fetchManifest(this.ref.digest ?? this.ref.tag ?? 'latest', true);
    if (!first.ok) return first;
    if (first.parsed.kind === 'manifest') {
      const { config, layers } = first.parsed;
      return { ok: true, manifest: { digest: first.digest, topDigest: first.digest, config, layers }, raw: first.raw };
    }
    const chosen = selectPlatform(first.parsed.manifests, arch);
    if (!chosen) return this.fail('NotFound', `no match for platform in manifest ${first.digest}: not found`);
    const second = await this.fetchManifest(chosen.digest, false);
    if (!second.ok) return second;
    if (second.parsed.kind !== 'manifest') return this.fail('Invalid', `nested index ${chosen.digest} is not supported`);
    const { config, layers } = second.parsed;
    return { ok: true, manifest: { digest: second.digest, topDigest: first.digest, config, layers }, raw: second.raw };
  }

  private async fetchManifest(
    reference: string,
    top: boolean,
  ): Promise<{ ok: true; digest: string; parsed: ParsedManifest; raw: Buffer } | ImageFailure> {
    const url = `${this.base}/manifests/${reference}`;
    const context = top ? `failed to resolve reference "${this.display}"` : `fetching manifest ${reference}`;
    const got = await this.get(url, context, MANIFEST_ACCEPT);
    if (!got.ok) return got;
    const res = got.res;
    if (res.status === 404) {
      await res.body?.cancel();
      return this.fail('NotFound', `failed to resolve reference "${this.display}": ${this.display}: not found`);
    }
    if (!res.ok) return this.httpFailure(res, context);
    const raw = Buffer.from(await res.arrayBuffer());
    if (raw.length > MAX_MANIFEST) return this.fail('Invalid', `manifest ${reference} too large`);
    const digest = sha256(raw);
    if (reference.startsWith('sha256:') && digest !== reference) {
      return this.fail('Invalid', `manifest digest mismatch: expected ${reference}, got ${digest}`);
    }
    const parsed = parseManifest(raw, res.headers.get('content-type') ?? undefined);
    if ('error' in parsed) return this.fail('Invalid', `${parsed.error} (${reference})`);
    return { ok: true as const, digest, parsed, raw };
  }

  private async httpFailure(res: Response, what: string): Promise<ImageFailure> {
    const text = (await res.text().catch(() => '')).slice(0, 300).trim();
    const detail = `${what}: unexpected status ${res.status} ${res.statusText}${text ? `: ${text}` : ''}`;
    if (res.status === 401 || res.status === 403) return this.fail('Unauthorized', detail);
    if (res.status >= 500) return this.fail('Unreachable', detail);
    return this.fail('Invalid', detail);
  }

  /** Downloads a blob into the store, verifying its digest. */
  async fetchBlob(blobs: BlobStore, desc: Descriptor, onBytes?: (n: number) => void): Promise<{ ok: true } | ImageFailure> {
    if (await blobs.has(desc.digest)) {
      onBytes?.(desc.size);
      return { ok: true };
    }
    const url = `${this.base}/blobs/${desc.digest}`;
    const got = await this.get(url, `fetching blob ${desc.digest}`);
    if (!got.ok) return got;
    const res = got.res;
    if (res.status === 404) {
      await res.body?.cancel();
      return this.fail('NotFound', `blob ${desc.digest}: not found`);
    }
    if (!res.ok || res.body === null) return this.httpFailure(res, `fetching blob ${desc.digest}`);
    const w = await blobs.write(res.body as unknown as AsyncIterable<Uint8Array>, desc.digest, onBytes);
    if (!w.ok) {
      const reason = this.signal?.aborted ? 'Unreachable' : 'Invalid';
      return this.fail(reason, `fetching blob ${desc.digest}: ${w.message}`);
    }
    return { ok: true };
  }
}

/** The innermost cause of a fetch failure: "connect ECONNREFUSED 127.0.0.1:1", "getaddrinfo ENOTFOUND x". */
export function causeOf(err: unknown): string {
  let e: unknown = err;
  const parts: string[] = [];
  for (let i = 0; i < 5 && e instanceof Error; i++) {
    parts.push(e.message);
    e = (e as Error & { cause?: unknown }).cause;
  }
  return parts.length > 1 ? parts.slice(1).join(': ') : (parts[0] ?? String(err));
}
