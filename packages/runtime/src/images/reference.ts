/**
 * Image reference parsing and normalization with docker/containerd semantics:
 *   busybox                  → docker.io/library/busybox:latest
 *   127.0.0.1:5000/busybox   → 127.0.0.1:5000/busybox:latest
 *   name@sha256:<hex>        → digest reference (no implied :latest)
 */

export interface ImageReference {
  /** Registry host[:port], e.g. "docker.io", "127.0.0.1:5000". */
  domain: string;
  /** Repository path inside the registry, e.g. "library/busybox". */
  path: string;
  tag?: string;
  digest?: string;
}

export type ParseResult = { ok: true; ref: ImageReference } | { ok: false; message: string };

const DEFAULT_DOMAIN = 'docker.io';
const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?$/;

/** Parses and normalizes a reference; tag defaults to "latest" only when neither tag nor digest is given. */
export function parseReference(input: string): ParseResult {
  const s = input.trim();
  if (s === '') return { ok: false, message: 'invalid reference format: empty reference' };
  let rest = s;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return { ok: false, message: `invalid reference format: bad digest in "${input}"` };
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return { ok: false, message: `invalid reference format: bad tag in "${input}"` };
  }
  const split = splitDomain(rest);
  if (!split.ok) return { ok: false, message: `invalid reference format: ${split.message} in "${input}"` };
  const { domain, path } = split;
  if (path.split('/').some((c) => !COMPONENT.test(c))) {
    const upper = /[A-Z]/.test(path) ? ': repository name must be lowercase' : '';
    return { ok: false, message: `invalid reference format${upper}: "${input}"` };
  }
  if (tag === undefined && digest === undefined) tag = 'latest';
  const ref: ImageReference = { domain, path };
  if (tag !== undefined) ref.tag = tag;
  if (digest !== undefined) ref.digest = digest;
  return { ok: true, ref };
}

function splitDomain(name: string): { ok: true; domain: string; path: string } | { ok: false; message: string } {
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const hasDomain = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost' || first.startsWith('['));
  if (!hasDomain) {
    const path = name.includes('/') ? name : `library/${name}`;
    return { ok: true, domain: DEFAULT_DOMAIN, path };
  }
  if (!DOMAIN.test(first)) return { ok: false, message: `bad registry host "${first}"` };
  let domain = first;
  let path = name.slice(slash + 1);
  if (domain === 'index.docker.io') domain = DEFAULT_DOMAIN;
  if (domain === DEFAULT_DOMAIN && !path.includes('/')) path = `library/${path}`;
  return { ok: true, domain, path };
}

/** "domain/path" */
export function repoName(r: ImageReference): string {
  return `${r.domain}/${r.path}`;
}

/** The full normalized string: name[:tag][@digest]. */
export function formatReference(r: ImageReference): string {
  return `${repoName(r)}${r.tag !== undefined ? `:${r.tag}` : ''}${r.digest !== undefined ? `@${r.digest}` : ''}`;
}

/** "name:tag" when there is a tag, else undefined. */
export function tagOf(r: ImageReference): string | undefined {
  return r.tag !== undefined ? `${repoName(r)}:${r.tag}` : undefined;
}

/** Normalizes or returns undefined when invalid. */
export function normalizeReference(input: string): string | undefined {
  const p = parseReference(input);
  return p.ok ? formatReference(p.ref) : undefined;
}

/** The host to talk to for a domain (docker.io's API lives on registry-1.docker.io). */
export function registryHost(domain: string): string {
  return domain === DEFAULT_DOMAIN ? 'registry-1.docker.io' : domain;
}

/** Plain HTTP for loopback hosts and registries listed as insecure (host or host:port). */
export function isPlainHttp(domain: string, insecure: readonly string[]): boolean {
  if (insecure.includes(domain)) return true;
  const host = hostOnly(domain);
  if (insecure.includes(host)) return true;
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

function hostOnly(domain: string): string {
  if (domain.startsWith('[')) return domain.slice(1, domain.indexOf(']'));
  const c = domain.lastIndexOf(':');
  return c >= 0 ? domain.slice(0, c) : domain;
}

/** True for "sha256:<64 hex>" or a bare 64-hex string (image ids). */
export function looksLikeId(s: string): boolean {
  return /^(?:sha256:)?[a-f0-9]{64}$/.test(s);
}
