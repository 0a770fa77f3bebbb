/**
 * Manifest decoding: YAML or JSON text → defaulted, validated static pods. Never throws: a YAML syntax
 * error, a wrong type anywhere (checked against the API schema, see type-check.ts) or a validation error is
 * a value carrying the kubelet-style message ("invalid pod: [<field errors>]").
 *
 * A manifest file holds one pod. A manifest URL body holds one pod, a v1 PodList, or several YAML documents
 * (each a pod or a PodList). A single-pod body that fails is a failure of the whole body (the kubelet keeps
 * the last good set); in a list or a multi-document body each pod is decoded and validated on its own: the
 * good ones are returned, each bad one becomes an error naming its place (`items[1]: …`, `document 2: …`).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { applyApiDefaults, applyStaticPodDefaults, type StaticPodSource } from './defaults.ts';
import { quote } from './meta-validation.ts';
import { checkTypes } from './type-check.ts';
import { validatePodCreate, validateTypedPod } from './validation.ts';

export type DecodeResult = { ok: true; pods: V1Pod[] } | { ok: false; message: string };
/** A URL body: the good pods and one message per bad pod, or a failure of the whole body. */
export type BodyDecodeResult = { ok: true; pods: V1Pod[]; errors: string[] } | { ok: false; message: string };
type PodResult = { ok: true; pod: V1Pod } | { ok: false; message: string };

/** At most this many field errors are spelled out in one message (a manifest can hold thousands). */
const MAX_LISTED_ERRORS = 20;

/** "invalid pod: [<errors>]", the kubelet's wording, with a long list cut. */
function invalid(errs: string[]): { ok: false; message: string } {
  const shown = errs.length > MAX_LISTED_ERRORS ? [...errs.slice(0, MAX_LISTED_ERRORS), `and ${errs.length - MAX_LISTED_ERRORS} more errors`] : errs;
  return { ok: false, message: `invalid pod: [${shown.join(', ')}]` };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** apimachinery's yaml.ToJSON: text whose first non-space character is `{` is taken as JSON as it is. */
const JSON_PREFIX = /^\s*\{/;

/**
 * The non-empty YAML documents of `text` as plain values, or the first syntax error. JSON text (the kubelet's
 * hasJSONPrefix) is parsed as JSON — 0.6 ms of the YAML parser for a 300-byte manifest against µs — and, when it is
 * not valid JSON, as YAML, whose errors name the place.
 */
function parseDocuments(text: string): { ok: true; docs: unknown[] } | { ok: false; message: string } {
  if (JSON_PREFIX.test(text)) {
    try {
      return { ok: true, docs: [JSON.parse(text) as unknown] };
    } catch {
      // not JSON after all: the YAML parser says where
    }
  }
  try {
    const docs: unknown[] = [];
    // merge: `<<` merge keys, as the YAML 1.1 parser behind the kubelet's decoder supports. logLevel 'error':
    // no process warnings (a manifest must not write to the agent's stderr); errors are in doc.errors.
    for (const doc of parseAllDocuments(text, { merge: true, logLevel: 'error' })) {
      const err = doc.errors[0];
      if (err) return { ok: false, message: `error converting YAML to JSON: ${err.message.split('\n')[0]}` };
      if (doc.contents === null) continue;
      docs.push(doc.toJS());
    }
    return { ok: true, docs };
  } catch (err) {
    return { ok: false, message: `error converting YAML to JSON: ${String((err as Error)?.message ?? err).split('\n')[0]}` };
  }
}

/** A short rendering of an object for messages (bounded, never throws). */
function brief(v: unknown): string {
  try {
    const s = JSON.stringify(v) ?? String(v);
    return s.length > 200 ? `${s.slice(0, 200)}...` : s;
  } catch {
    return String(typeof v);
  }
}

/** Checks kind/apiVersion and types, defaults and validates one pod object. Never throws. */
export function preparePod(obj: Record<string, unknown>, src: StaticPodSource): PodResult {
  try {
    return preparePodUnchecked(obj, src);
  } catch (err) {
    return { ok: false, message: `invalid pod: ${String((err as Error)?.message ?? err)}` };
  }
}

function preparePodUnchecked(obj: Record<string, unknown>, src: StaticPodSource): PodResult {
  if (obj.kind === undefined || obj.kind === null || obj.kind === '') return { ok: false, message: `Object 'Kind' is missing in '${brief(obj)}'` };
  if (obj.kind !== 'Pod') return { ok: false, message: `invalid pod: kind ${quote(obj.kind)} is not a Pod` };
  if (obj.apiVersion !== 'v1') return { ok: false, message: `invalid pod: apiVersion ${quote(obj.apiVersion)} is not v1` };
  const typed = checkTypes<V1Pod>(obj, 'V1Pod');
  if (!typed.value) return invalid(typed.errors);
  const pod = typed.value;
  if (!pod.metadata?.name) return { ok: false, message: 'invalid pod: [metadata.name: Required value: name or generateName is required]' };
  if (!isObject(pod.spec)) return { ok: false, message: 'invalid pod: [spec: Required value]' };
  // spec.nodeName is never the manifest's: the kubelet sets it to its node's name before validating.
  const notNodeName = (e: string) => !e.startsWith('spec.nodeName: ');
  const pre = validatePodCreate(pod).filter(notNodeName);
  if (pre.length > 0) return invalid(pre);
  applyApiDefaults(pod);
  applyStaticPodDefaults(pod, src);
  // Again after the static defaults (the kubelet validates the defaulted pod: `<name>-<node>` may be too long).
  const errs = validateTypedPod(pod).filter(notNodeName);
  if (errs.length > 0) return invalid(errs);
  return { ok: true, pod };
}

function decodeOne(doc: unknown, src: StaticPodSource): PodResult {
  if (!isObject(doc)) return { ok: false, message: `couldn't parse as pod(expected a YAML/JSON object), please check config file` };
  return preparePod(doc, src);
}

/** One pod per manifest file, as the kubelet's file source. */
export function decodeSinglePod(text: string, src: StaticPodSource): DecodeResult {
  const parsed = parseDocuments(text);
  if (!parsed.ok) return parsed;
  if (parsed.docs.length > 1) {
    return { ok: false, message: `found ${parsed.docs.length} YAML documents; a manifest file holds exactly one pod` };
  }
  const r = decodeOne(parsed.docs[0] ?? null, src);
  return r.ok ? { ok: true, pods: [r.pod] } : r;
}

/** The pods of one v1 PodList, each on its own; `at` prefixes the messages (e.g. "document 2: "). */
function decodeList(list: Record<string, unknown>, src: StaticPodSource, at: string, out: { pods: V1Pod[]; errors: string[] }): void {
  if (list.apiVersion !== 'v1') return void out.errors.push(`${at}invalid pods list: apiVersion ${quote(list.apiVersion)} is not v1`);
  const items = list.items ?? [];
  if (!Array.isArray(items)) return void out.errors.push(`${at}invalid pods list: items in body must be of type array`);
  for (const [i, item] of items.entries()) {
    const r = isObject(item) ? preparePod({ apiVersion: 'v1', kind: 'Pod', ...item }, src) : decodeOne(item, src);
    if (r.ok) out.pods.push(r.pod);
    else out.errors.push(`${at}items[${i}]: ${r.message}`);
  }
}

/** A manifest URL body: a single pod, a v1 PodList, or a multi-document YAML stream of either. */
export function decodePodOrList(text: string, src: StaticPodSource): BodyDecodeResult {
  if (text.trim() === '') return { ok: false, message: `zero-length data received from ${src.id}` };
  const parsed = parseDocuments(text);
  if (!parsed.ok) return parsed;
  const docs = parsed.docs;
  if (docs.length === 0) return { ok: false, message: `zero-length data received from ${src.id}` };
  const first = docs[0];
  if (docs.length === 1 && !(isObject(first) && first.kind === 'PodList')) {
    if (!isObject(first)) return { ok: false, message: `received data that is not a pod or a list of pods` };
    const r = preparePod(first, src);
    return r.ok ? { ok: true, pods: [r.pod], errors: [] } : r;
  }
  const out = { pods: [] as V1Pod[], errors: [] as string[] };
  for (const [d, doc] of docs.entries()) {
    const at = docs.length > 1 ? `document ${d + 1}: ` : '';
    if (isObject(doc) && doc.kind === 'PodList') decodeList(doc, src, at, out);
    else {
      const r = decodeOne(doc, src);
      if (r.ok) out.pods.push(r.pod);
      else out.errors.push(`${at}${r.message}`);
    }
  }
  return { ok: true, ...out };
}
