/**
 * The `pods/ephemeralcontainers` subresource of the double, as the real pod registry serves it (v1.28
 * pkg/registry/core/pod/strategy.go podEphemeralContainersStrategy and pkg/apis/core/validation
 * validateEphemeralContainers / ValidatePodEphemeralContainersUpdate):
 * - an update (PUT or any PATCH) changes only `spec.ephemeralContainers` (dropNonEphemeralContainerUpdates: the
 *   rest of the spec, the status and the metadata come from the stored pod); generation is bumped as for any
 *   spec change;
 * - new ephemeral containers get the container defaults (terminationMessagePath/Policy, imagePullPolicy);
 * - validation: names unique across containers, init containers and ephemeral containers; targetContainerName
 *   names a container or init container; no ports / resources / probes / lifecycle / resizePolicy /
 *   restartPolicy (the allow-list, "cannot be set for an Ephemeral Container"), no subPath / subPathExpr;
 *   existing ones may be neither removed nor changed; mirror (static) pods refuse them; a pod create that
 *   carries any is refused ("cannot be set on create").
 */
import { validateTypedPod } from '@nodelet/core/config';
import { canonicalJson } from '@nodelet/core/util';
import type { V1Pod } from '@kubernetes/client-node';
import type { KubeObject } from '../resources.ts';
import { defaultContainer, type FieldError } from './pod-rules.ts';
import { fieldError } from './field-error.ts';
import { clone } from './store.ts';

const PATH = 'spec.ephemeralContainers';
const FORBIDDEN = 'cannot be set for an Ephemeral Container';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** EphemeralContainerCommon fields outside the allow-list (their zero value is allowed). */
const NOT_ALLOWED = ['ports', 'resources', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resizePolicy', 'restartPolicy'];

const q = (s: unknown) => JSON.stringify(String(s ?? ''));

function isZero(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as object).every(isZero);
  return v === '' || v === 0 || v === false;
}

/** The spec an ephemeralcontainers update stores: the old pod with only the new ephemeral containers, defaulted. */
export function withEphemeralContainers(old: KubeObject, body: KubeObject): KubeObject {
  const next = clone(old);
  const ecs = clone(body?.spec?.ephemeralContainers ?? []);
  for (const ec of Array.isArray(ecs) ? ecs : []) if (ec && typeof ec === 'object') defaultContainer(ec);
  next.spec = { ...next.spec, ephemeralContainers: ecs };
  if (next.spec.ephemeralContainers.length === 0) delete next.spec.ephemeralContainers;
  return next;
}

/** validateEphemeralContainers: the field errors of spec.ephemeralContainers (part of every pod validation). */
export function validateEphemeralContainers(pod: KubeObject): FieldError[] {
  const spec = pod.spec ?? {};
  const ecs: any[] = spec.ephemeralContainers ?? [];
  if (ecs.length === 0) return [];
  const errs: string[] = [];
  const others = new Set<string>([...(spec.containers ?? []), ...(spec.initContainers ?? [])].map((c: any) => c?.name));
  const all = new Set(others);
  // validateContainerCommon (name, image, env, volume mounts, ...) through the kubelet's own container checks:
  // the ephemeral containers checked as the only containers of a pod with the same volumes, the paths renamed.
  const common = ecs.map((ec) => {
    const c = { ...ec };
    for (const f of NOT_ALLOWED) delete c[f];
    delete c.targetContainerName;
    return c;
  });
  const probe = { metadata: { name: 'x' }, spec: { volumes: spec.volumes, containers: common } } as V1Pod;
  const commonErrs = validateTypedPod(probe).filter((e) => e.startsWith('spec.containers[')).map((e) => PATH + e.slice('spec.containers'.length));
  ecs.forEach((ec, i) => {
    const p = `${PATH}[${i}]`;
    errs.push(...commonErrs.filter((e) => e.startsWith(`${p}.`) || e.startsWith(`${p}:`)));
    if (ec.name) {
      // Duplicates among the ephemeral containers themselves were reported by the container checks above.
      if (others.has(ec.name)) errs.push(`${p}.name: Duplicate value: ${q(ec.name)}`);
      all.add(ec.name);
    }
    if (ec.targetContainerName && !others.has(ec.targetContainerName)) errs.push(`${p}.targetContainerName: Not found: ${q(ec.targetContainerName)}`);
    for (const f of NOT_ALLOWED) if (!isZero(ec[f])) errs.push(`${p}.${f}: Forbidden: ${FORBIDDEN}`);
    (ec.volumeMounts ?? []).forEach((vm: any, j: number) => {
      if (vm?.subPath) errs.push(`${p}.volumeMounts[${j}].subPath: Forbidden: ${FORBIDDEN}`);
      if (vm?.subPathExpr) errs.push(`${p}.volumeMounts[${j}].subPathExpr: Forbidden: ${FORBIDDEN}`);
    });
  });
  return errs.map(fieldError);
}

/** ValidatePodCreate's rule: ephemeral containers only come through the subresource. */
export function validateNoEphemeralContainersOnCreate(pod: KubeObject): FieldError[] {
  return (pod.spec?.ephemeralContainers ?? []).length > 0 ? [fieldError(`${PATH}: Forbidden: cannot be set on create`)] : [];
}

/** The fields of two ephemeral containers that differ (the real message carries a cmp.Diff of the structs). */
function changedFields(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((k) => canonicalJson(a[k]) !== canonicalJson(b[k]));
}

/** ValidatePodEphemeralContainersUpdate, part 2 (part 1, the whole pod's validation, is the caller's). */
export function validateEphemeralContainersUpdate(old: KubeObject, next: KubeObject): FieldError[] {
  if (old.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return [fieldError(': Forbidden: static pods do not support ephemeral containers')];
  const byName = new Map<string, any>((next.spec?.ephemeralContainers ?? []).map((ec: any) => [ec?.name, ec]));
  const errs: FieldError[] = [];
  for (const o of old.spec?.ephemeralContainers ?? []) {
    const n = byName.get(o.name);
    if (!n) errs.push({ field: PATH, type: 'FieldValueForbidden', message: `Forbidden: existing ephemeral containers ${q(o.name)} may not be removed\n` });
    else if (canonicalJson(o) !== canonicalJson(n)) {
      const diff = changedFields(o, n).map((k) => `  ${k}: ${JSON.stringify(o[k])} → ${JSON.stringify(n[k])}`).join('\n');
      errs.push({ field: PATH, type: 'FieldValueForbidden', message: `Forbidden: existing ephemeral containers ${q(o.name)} may not be changed\n${diff}` });
    }
  }
  return errs;
}
