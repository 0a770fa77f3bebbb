/**
 * Container spec hash (annotation io.kubernetes.container.hash): FNV-1a 32 over a canonical JSON of the
 * spec fields that require a restart when changed. Resources are left out (in-place resize).
 */
import type { V1Container } from '@kubernetes/client-node';

export function hashContainer(c: V1Container): string {
  const { resources: _r, ...rest } = c;
  return fnv1a32(canonicalJson(rest)).toString(16);
}

export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** JSON with object keys sorted, undefined dropped: equal specs give equal strings. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}
