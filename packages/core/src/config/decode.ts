/**
 * Manifest decoding: YAML or JSON text → a defaulted, validated static pod (or a PodList's pods). Failures
 * are values carrying the kubelet-style message.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { applyApiDefaults, applyStaticPodDefaults, type StaticPodSource } from './defaults.ts';
import { validatePod } from './validation.ts';

export type DecodeResult = { ok: true; pods: V1Pod[] } | { ok: false; message: string };

function parseText(text: string): { ok: true; obj: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, obj: parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: `error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}` };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks kind/apiVersion, defaults and validates one pod object. */
export function preparePod(obj: Record<string, unknown>, src: StaticPodSource): { ok: true; pod: V1Pod } | { ok: false; message: string } {
  if (obj.kind === undefined || obj.kind === '') return { ok: false, message: `Object 'Kind' is missing in '${JSON.stringify(obj).slice(0, 200)}'` };
  if (obj.kind !== 'Pod') return { ok: false, message: `invalid pod: kind ${JSON.stringify(obj.kind)} is not a Pod` };
  if (obj.apiVersion !== 'v1') return { ok: false, message: `invalid pod: apiVersion ${JSON.stringify(obj.apiVersion)} is not v1` };
  const pod = structuredClone(obj) as V1Pod;
  if (!pod.metadata?.name) return { ok: false, message: 'invalid pod: [metadata.name: Required value: name or generateName is required]' };
  if (!isObject(pod.spec)) return { ok: false, message: 'invalid pod: [spec: Required value]' };
  const pre = validatePod(pod);
  if (pre.length > 0) return { ok: false, message: `invalid pod: [${pre.join(', ')}]` };
  applyApiDefaults(pod);
  applyStaticPodDefaults(pod, src);
  const errs = validatePod(pod);
  if (errs.length > 0) return { ok: false, message: `invalid pod: [${errs.join(', ')}]` };
  return { ok: true, pod };
}

/** One pod per manifest file, as the kubelet's file source. */
export function decodeSinglePod(text: string, src: StaticPodSource): DecodeResult {
  const parsed = parseText(text);
  if (!parsed.ok) return parsed;
  if (!isObject(parsed.obj)) return { ok: false, message: `couldn't parse as pod(expected a YAML/JSON object), please check config file` };
  const r = preparePod(parsed.obj, src);
  return r.ok ? { ok: true, pods: [r.pod] } : r;
}

/** A single pod or a v1 PodList (manifest URL). A list with any invalid pod is refused as a whole. */
export function decodePodOrList(text: string, src: StaticPodSource): DecodeResult {
  if (text.trim() === '') return { ok: false, message: `zero-length data received from ${src.id}` };
  const parsed = parseText(text);
  if (!parsed.ok) return parsed;
  const obj = parsed.obj;
  if (!isObject(obj)) return { ok: false, message: `received data that is not a pod or a list of pods` };
  if (obj.kind !== 'PodList') return decodeSinglePod(text, src);
  if (obj.apiVersion !== 'v1') return { ok: false, message: `invalid pods list: apiVersion ${JSON.stringify(obj.apiVersion)} is not v1` };
  const items = Array.isArray(obj.items) ? obj.items : [];
  const pods: V1Pod[] = [];
  for (const [i, item] of items.entries()) {
    if (!isObject(item)) return { ok: false, message: `invalid pods list: items[${i}] is not an object` };
    const r = preparePod({ apiVersion: 'v1', kind: 'Pod', ...item }, src);
    if (!r.ok) return { ok: false, message: `items[${i}]: ${r.message}` };
    pods.push(r.pod);
  }
  return { ok: true, pods };
}
