/** Image reference parsing: validity (InvalidImageName), default `:latest` tag, default pull policy. */
import type { V1Container } from '@kubernetes/client-node';
import type { PullPolicy } from './types.ts';

const COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-fA-F0-9]{32,}$/;

export interface ParsedRef {
  name: string;
  tag?: string;
  digest?: string;
}

export type ParseRefResult = { ok: true; ref: ParsedRef } | { ok: false; message: string };

export function parseImageRef(image: string): ParseRefResult {
  if (!image) return { ok: false, message: 'invalid reference format: repository name must not be empty' };
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return { ok: false, message: 'invalid reference format' };
  }
  let tag: string | undefined;
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return { ok: false, message: 'invalid reference format' };
  }
  const parts = rest.split('/');
  const first = parts[0] ?? '';
  const hasDomain = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (hasDomain && !DOMAIN.test(first)) return { ok: false, message: 'invalid reference format' };
  for (const p of hasDomain ? parts.slice(1) : parts) {
    if (!COMPONENT.test(p)) {
      const upper = /[A-Z]/.test(p);
      return { ok: false, message: upper ? 'invalid reference format: repository name must be lowercase' : 'invalid reference format' };
    }
  }
  return { ok: true, ref: { name: rest, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) } };
}

/** The image with `:latest` added when it has neither tag nor digest. */
export function applyDefaultImageTag(image: string): { ok: true; image: string } | { ok: false; message: string } {
  const r = parseImageRef(image);
  if (!r.ok) return r;
  if (!r.ref.tag && !r.ref.digest) return { ok: true, image: `${image}:latest` };
  return { ok: true, image };
}

/** API defaulting: Always for `:latest` or untagged images, else IfNotPresent. */
export function pullPolicyOf(c: V1Container): PullPolicy {
  const p = c.imagePullPolicy;
  if (p === 'Always' || p === 'IfNotPresent' || p === 'Never') return p;
  const r = parseImageRef(c.image ?? '');
  if (!r.ok) return 'IfNotPresent';
  if (r.ref.digest) return 'IfNotPresent';
  return !r.ref.tag || r.ref.tag === 'latest' ? 'Always' : 'IfNotPresent';
}
