/**
 * Secrets as the v1.28 API server treats them: `stringData` merged into `data` (base64, overriding the same
 * key) and dropped, `type` defaulted to Opaque (create); ValidateSecret — data keys valid config keys, at most
 * 1 MiB of data, a `kubernetes.io/dockercfg` / `kubernetes.io/dockerconfigjson` Secret carries its key
 * (`.dockercfg` / `.dockerconfigjson`) holding a JSON object, basic-auth / ssh-auth / TLS Secrets their keys;
 * ValidateSecretUpdate — `type` immutable, and with `immutable: true` neither `data` nor `immutable` change.
 * JSON syntax errors are worded as Go's encoding/json words the common ones.
 */
import type { KubeObject } from '../resources.ts';
import type { FieldError } from './pod-rules.ts';

const MAX_SECRET_SIZE = 1024 * 1024;
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const REDACTED = '<secret contents redacted>';

type Data = Record<string, string>;

/** Create-time conversion and defaults: stringData into data, type Opaque when empty. */
export function defaultSecret(obj: KubeObject): void {
  const s = obj as KubeObject & { data?: Data; stringData?: Data; type?: string };
  if (s.stringData && typeof s.stringData === 'object') {
    s.data = { ...(s.data ?? {}) };
    for (const [k, v] of Object.entries(s.stringData)) s.data[k] = Buffer.from(String(v)).toString('base64');
  }
  delete s.stringData;
  if (!s.type) s.type = 'Opaque';
}

const required = (field: string): FieldError => ({ field, type: 'FieldValueRequired', message: 'Required value' });
const invalid = (field: string, value: string, why: string): FieldError => ({ field, type: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${why}` });

/** ValidateSecret (the data rules; metadata is validated with every object). */
export function validateSecret(obj: KubeObject): FieldError[] {
  const data = ((obj as { data?: Data }).data ?? {}) as Data;
  const type = String((obj as { type?: string }).type ?? '');
  const errs: FieldError[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of configKeyErrors(key)) errs.push(invalid(`data[${key}]`, key, msg));
    total += Buffer.from(value ?? '', 'base64').length;
  }
  if (total > MAX_SECRET_SIZE) errs.push({ field: 'data', type: 'FieldValueTooLong', message: `Too long: must have at most ${MAX_SECRET_SIZE} bytes` });
  const has = (k: string) => Object.hasOwn(data, k);
  const jsonKey = type === 'kubernetes.io/dockercfg' ? '.dockercfg' : type === 'kubernetes.io/dockerconfigjson' ? '.dockerconfigjson' : undefined;
  if (jsonKey !== undefined) {
    if (!has(jsonKey)) errs.push(required(`data[${jsonKey}]`));
    else {
      const bad = jsonObjectError(Buffer.from(data[jsonKey] ?? '', 'base64').toString('utf8'));
      if (bad !== undefined) errs.push(invalid(`data[${jsonKey}]`, REDACTED, bad));
    }
  } else if (type === 'kubernetes.io/basic-auth') {
    if (!has('username') && !has('password')) errs.push(required('data[username]'), required('data[password]'));
  } else if (type === 'kubernetes.io/ssh-auth') {
    if (!data['ssh-privatekey']) errs.push(required('data[ssh-privatekey]'));
  } else if (type === 'kubernetes.io/tls') {
    if (!has('tls.crt')) errs.push(required('data[tls.crt]'));
    if (!has('tls.key')) errs.push(required('data[tls.key]'));
  } else if (type === 'kubernetes.io/service-account-token') {
    if (!obj.metadata?.annotations?.['kubernetes.io/service-account.name']) errs.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
  }
  return errs;
}

/** ValidateSecretUpdate: the type and an immutable Secret's data do not change. */
export function validateSecretUpdate(old: KubeObject, next: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const oldType = String((old as { type?: string }).type ?? '');
  const newType = String((next as { type?: string }).type ?? '');
  if (oldType !== newType) errs.push(invalid('type', newType, 'field is immutable'));
  if ((old as { immutable?: boolean }).immutable === true) {
    if ((next as { immutable?: boolean }).immutable !== true) errs.push({ field: 'immutable', type: 'FieldValueForbidden', message: 'Forbidden: field is immutable when `immutable` is set' });
    if (JSON.stringify(sorted((old as { data?: Data }).data)) !== JSON.stringify(sorted((next as { data?: Data }).data)))
      errs.push({ field: 'data', type: 'FieldValueForbidden', message: 'Forbidden: field is immutable when `immutable` is set' });
  }
  return errs;
}

function configKeyErrors(key: string): string[] {
  const out: string[] = [];
  if (key.length > 253) out.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) out.push(CONFIG_KEY_MSG);
  if (key === '.') out.push("must not be '.'");
  else if (key === '..') out.push("must not be '..'");
  else if (key.startsWith('..')) out.push("must not start with '..'");
  return out;
}

/** Why json.Unmarshal into map[string]interface{} fails, or undefined when it does not (null included). */
export function jsonObjectError(text: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return goSyntaxError(text);
  }
  if (v === null || (typeof v === 'object' && !Array.isArray(v))) return undefined;
  const kind = Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : 'number';
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

/** Go's wording for the first bad character (its scanner's context simplified) or a truncated document. */
function goSyntaxError(text: string): string {
  const t = text.trim();
  if (t === '') return 'unexpected end of JSON input';
  let i = 0;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  if (inString || depth > 0) return 'unexpected end of JSON input';
  const first = t[0]!;
  if (!'{["-0123456789tfn'.includes(first)) return `invalid character '${first}' looking for beginning of value`;
  return 'invalid character in JSON input';
}

function sorted(d: Data | undefined): Array<[string, string]> {
  return Object.entries(d ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
