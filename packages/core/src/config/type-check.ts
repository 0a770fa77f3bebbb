/**
 * Structural type check of a decoded manifest against the Kubernetes API schema, as the API machinery's
 * decoding does before any validation: the schema is @kubernetes/client-node's model attribute maps (wire
 * names and types of every field of every type reachable from V1Pod). The result is a clean copy holding
 * only known fields of the right types (unknown fields dropped and `null` treated as absent, as Go's JSON
 * decoder does), or field errors in the apimachinery shape used for structural schemas:
 *   spec.containers: Invalid value: "string": spec.containers in body must be of type array: "string"
 * Never throws: everything is read through type checks, so no manifest can crash the caller.
 */
// The schema: the models reachable from V1Pod (the only type checked here), one file each, not the package index
// (2 500 models, the API clients, KubeConfig: about 70 MiB RSS against a few MiB). See scripts/gen-pod-models.mjs.
import * as models from './pod-models.ts';

interface Attribute {
  name: string;
  baseName: string;
  type: string;
  format: string;
}

/** Quantity fields (resource.Quantity) take a JSON string or number, as the Go unmarshaller accepts both. */
const QUANTITY_ATTRS = new Set(['limits', 'requests', 'overhead', 'allocatedResources', 'sizeLimit', 'divisor']);
const INT32 = 2 ** 31;
const ARRAY_RE = /^Array<(.+)>$/;
const MAP_RE = /^\{ \[key: string\]: (.+); \}$/;

export interface TypeCheckResult<T> {
  value: T | undefined;
  errors: string[];
}

/** The JSON (OpenAPI) type name of a value, as the structural schema errors print it. */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

function typeError(path: string, v: unknown, want: string): string {
  const got = jsonType(v);
  return `${path}: Invalid value: "${got}": ${path} in body must be of type ${want}: "${got}"`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function attributesOf(type: string): Attribute[] | undefined {
  const cls = (models as unknown as Record<string, unknown>)[type] as { getAttributeTypeMap?: () => Attribute[] } | undefined;
  return typeof cls?.getAttributeTypeMap === 'function' ? cls.getAttributeTypeMap() : undefined;
}

function checkNumber(v: unknown, format: string, path: string, errors: string[]): number | undefined {
  const integer = format === 'int32' || format === 'int64';
  if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
    errors.push(typeError(path, v, integer ? 'integer' : 'number'));
    return undefined;
  }
  if (format === 'int32' && (v >= INT32 || v < -INT32)) {
    errors.push(`${path}: Invalid value: ${v}: must be a 32-bit integer`);
    return undefined;
  }
  return v;
}

function checkValue(v: unknown, type: string, format: string, path: string, errors: string[], quantity = false): unknown {
  const arr = ARRAY_RE.exec(type);
  if (arr) {
    if (!Array.isArray(v)) return void errors.push(typeError(path, v, 'array'));
    return v.map((item, i) => checkValue(item, arr[1] as string, format, `${path}[${i}]`, errors, quantity));
  }
  const map = MAP_RE.exec(type);
  if (map) {
    if (!isPlainObject(v)) return void errors.push(typeError(path, v, 'object'));
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) {
      if (item === null) continue;
      const checked = checkValue(item, map[1] as string, format, `${path}[${k}]`, errors, quantity);
      // defineProperty: a key such as "__proto__" stays a plain own key.
      if (checked !== undefined) Object.defineProperty(out, k, { value: checked, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  switch (type) {
    case 'Date':
      // A YAML 1.1 timestamp (`%YAML 1.1` documents) arrives as a Date; Go reads it as the RFC 3339 string.
      if (v instanceof Date && Number.isFinite(v.getTime())) return v.toISOString().replace('.000Z', 'Z');
    // falls through
    case 'string':
      if (typeof v === 'string') return v;
      if (quantity && typeof v === 'number' && Number.isFinite(v)) return v;
      return void errors.push(typeError(path, v, 'string'));
    case 'number':
      return checkNumber(v, format, path, errors);
    case 'boolean':
      return typeof v === 'boolean' ? v : void errors.push(typeError(path, v, 'boolean'));
    case 'IntOrString':
      if (typeof v === 'string') return v;
      if (typeof v === 'number' && Number.isInteger(v)) return v;
      return void errors.push(typeError(path, v, 'integer or string'));
    case 'any':
    case 'object':
      return v;
  }
  const attrs = attributesOf(type);
  if (!attrs) return v; // a type this schema does not describe: kept as is
  if (!isPlainObject(v)) return void errors.push(typeError(path, v, 'object'));
  const out: Record<string, unknown> = {};
  for (const a of attrs) {
    if (!Object.hasOwn(v, a.baseName)) continue;
    const item = v[a.baseName];
    if (item === null || item === undefined) continue;
    const checked = checkValue(item, a.type, a.format, path ? `${path}.${a.baseName}` : a.baseName, errors, QUANTITY_ATTRS.has(a.baseName));
    if (checked !== undefined) out[a.baseName] = checked;
  }
  return out;
}

/**
 * Checks `value` against the API type `type` (a client-node model name, e.g. "V1Pod"); `path` prefixes the
 * field paths ("" for a whole object). On errors `value` is undefined.
 */
export function checkTypes<T>(value: unknown, type: string, path = ''): TypeCheckResult<T> {
  const errors: string[] = [];
  const out = checkValue(value, type, '', path, errors);
  return errors.length > 0 ? { value: undefined, errors } : { value: out as T, errors };
}
