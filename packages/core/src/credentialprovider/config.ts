/**
 * Docker credential files as the kubelet reads them (pkg/credentialprovider config.go): the `auths` of a
 * `config.json` / `.dockerconfigjson`, or a legacy `.dockercfg` map. Each entry has `username` / `password` /
 * `email` (JSON keys matched case-insensitively, as Go's encoding/json does) and an optional `auth`,
 * base64("user:pass"), which replaces username and password.
 */
import type { AuthConfig, DockerConfig } from './keyring.ts';

export type ParseResult = { ok: true; config: DockerConfig } | { ok: false; message: string };

/** A `.dockercfg` body: `{ "<registry>": { entry }, ... }`. */
export function parseDockercfg(text: string): ParseResult {
  const doc = parseJson(text);
  if (!doc.ok) return doc;
  if (doc.value === null) return { ok: true, config: new Map() };
  if (!isObject(doc.value)) return { ok: false, message: `json: cannot unmarshal ${goType(doc.value)} into Go value of type credentialprovider.DockerConfig` };
  return entries(doc.value);
}

/** A `config.json` / `.dockerconfigjson` body: `{ "auths": { "<registry>": { entry }, ... } }`. */
export function parseDockerConfigJson(text: string): ParseResult {
  const doc = parseJson(text);
  if (!doc.ok) return doc;
  if (doc.value === null) return { ok: true, config: new Map() };
  if (!isObject(doc.value)) return { ok: false, message: `json: cannot unmarshal ${goType(doc.value)} into Go value of type credentialprovider.DockerConfigJSON` };
  const auths = field(doc.value, 'auths');
  if (auths === undefined || auths === null) return { ok: true, config: new Map() };
  if (!isObject(auths)) return { ok: false, message: `json: cannot unmarshal ${goType(auths)} into Go struct field DockerConfigJSON.auths of type credentialprovider.DockerConfig` };
  return entries(auths);
}

function entries(obj: Record<string, unknown>): ParseResult {
  const config: DockerConfig = new Map();
  for (const [loc, raw] of Object.entries(obj)) {
    const e = entry(raw);
    if (!e.ok) return e;
    config.set(loc, e.auth);
  }
  return { ok: true, config };
}

function entry(raw: unknown): { ok: true; auth: AuthConfig } | { ok: false; message: string } {
  if (raw === null) return { ok: true, auth: { username: '', password: '' } };
  if (!isObject(raw)) return { ok: false, message: `json: cannot unmarshal ${goType(raw)} into Go value of type credentialprovider.dockerConfigEntryWithAuth` };
  const v: Record<string, string> = {};
  for (const name of ['username', 'password', 'email', 'auth']) {
    const x = field(raw, name);
    if (x !== undefined && x !== null && typeof x !== 'string') {
      return { ok: false, message: `json: cannot unmarshal ${goType(x)} into Go struct field dockerConfigEntryWithAuth.${name} of type string` };
    }
    v[name] = typeof x === 'string' ? x : '';
  }
  const out: AuthConfig = { username: v.username!, password: v.password!, ...(v.email ? { email: v.email } : {}) };
  if (!v.auth) return { ok: true, auth: out };
  const decoded = decodeAuthField(v.auth);
  if (!decoded.ok) return decoded;
  return { ok: true, auth: { ...out, username: decoded.username, password: decoded.password } };
}

/** The `auth` field: base64 (padded, or unpadded when it does not end in "=") of "username:password". */
export function decodeAuthField(field: string): { ok: true; username: string; password: string } | { ok: false; message: string } {
  const padded = field.trim().endsWith('=');
  const bad = padded ? badStdBase64(field) : badRawBase64(field);
  if (bad !== undefined) return { ok: false, message: `illegal base64 data at input byte ${bad}` };
  const decoded = Buffer.from(field, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { ok: false, message: 'unable to parse auth field, must be formatted as base64(username:password)' };
  return { ok: true, username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

const B64 = /[A-Za-z0-9+/]/;

/** Where Go's base64.StdEncoding stops on a malformed padded string (its CorruptInputError offset), or undefined. */
function badStdBase64(s: string): number | undefined {
  for (let i = 0; i < s.length; i++) if (!B64.test(s[i]!) && s[i] !== '=') return i;
  if (/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return undefined;
  const eq = s.indexOf('=');
  return eq >= 0 && eq % 4 < 2 ? eq : s.length - (s.length % 4 || 4);
}

/** Where Go's base64.RawStdEncoding stops on a malformed unpadded string, or undefined when valid. */
function badRawBase64(s: string): number | undefined {
  for (let i = 0; i < s.length; i++) if (!B64.test(s[i]!)) return i;
  if (s.length % 4 === 1) return s.length - 1;
  return undefined;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: `invalid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Go's encoding/json field lookup: the exact key, else the last key equal ignoring case. */
function field(obj: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(obj, name)) return obj[name];
  let found: unknown;
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === name) found = v;
  return found;
}

function goType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object' && v !== null) return 'object';
  return typeof v;
}
