/** Stable hashes of JSON-like values: key order never matters. */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted, undefined members dropped, Dates as ISO strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalize(value));
}

function normalize(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : normalize(x)));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = normalize(x);
    }
    return out;
  }
  return v;
}

/** md5 hex (32 chars) of the canonical JSON of each part, in order: the static pod UID recipe. */
export function md5Hex(...parts: unknown[]): string {
  const h = createHash('md5');
  for (const p of parts) h.update(typeof p === 'string' ? p : canonicalJson(p));
  return h.digest('hex');
}

/** FNV-1a 32-bit of a string, as 8 hex chars (short, stable; e.g. container spec hashes). */
export function fnv32a(s: string): string {
  let h = 0x811c9dc5;
  const bytes = Buffer.from(s, 'utf8');
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** fnv32a of canonical JSON. */
export function hashObject(value: unknown): string {
  return fnv32a(canonicalJson(value));
}

/** Deep equality through canonical JSON (Dates equal to their ISO strings). */
export function deepEqualJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
