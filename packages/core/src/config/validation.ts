/**
 * Pod validation with the API server's messages (field path: error), for the fields the kubelet depends on.
 * Takes any value: the structural type check runs first (wrong types are field errors, never exceptions),
 * then the semantic checks on the typed copy. Returns the list of errors; empty when valid.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { validateProbe } from '../prober/validation.ts';
import { tryParseQuantity } from '../util/quantity.ts';
import { quote, validateDnsLabel, validatePodMeta } from './meta-validation.ts';
import { checkTypes } from './type-check.ts';
import { validatePodVolumes } from './volume-validation.ts';

const q = quote;

function validateResources(c: V1Container, path: string): string[] {
  const errs: string[] = [];
  const parsed: Record<'limits' | 'requests', Record<string, number>> = { limits: {}, requests: {} };
  for (const kind of ['limits', 'requests'] as const) {
    for (const [name, v] of Object.entries(c.resources?.[kind] ?? {})) {
      const r = tryParseQuantity(v);
      if (!r.ok) errs.push(`${path}.resources.${kind}[${name}]: Invalid value: ${q(v)}: ${r.reason}`);
      else if (r.value < 0) errs.push(`${path}.resources.${kind}[${name}]: Invalid value: ${q(v)}: must be greater than or equal to 0`);
      else parsed[kind][name] = r.value;
    }
  }
  for (const [name, req] of Object.entries(parsed.requests)) {
    const lim = parsed.limits[name];
    if (lim !== undefined && req > lim) {
      errs.push(
        `${path}.resources.requests: Invalid value: ${q(c.resources?.requests?.[name])}: must be less than or equal to ${name} limit of ${c.resources?.limits?.[name]}`,
      );
    }
  }
  return errs;
}

function validateContainer(c: V1Container, path: string, seen: Set<string>, init: boolean): string[] {
  const errs: string[] = [];
  if (!c.name) errs.push(`${path}.name: Required value`);
  else {
    errs.push(...validateDnsLabel(`${path}.name`, c.name));
    if (seen.has(c.name)) errs.push(`${path}.name: Duplicate value: ${q(c.name)}`);
    seen.add(c.name);
  }
  if (!c.image || (typeof c.image === 'string' && c.image.trim() === '')) errs.push(`${path}.image: Required value`);
  for (const [i, p] of (c.ports ?? []).entries()) {
    const pp = `${path}.ports[${i}]`;
    if (!Number.isInteger(p.containerPort) || p.containerPort < 1 || p.containerPort > 65535) {
      errs.push(`${pp}.containerPort: Invalid value: ${p.containerPort ?? 0}: must be between 1 and 65535, inclusive`);
    }
    if (p.hostPort !== undefined && p.hostPort !== 0 && (p.hostPort < 1 || p.hostPort > 65535)) {
      errs.push(`${pp}.hostPort: Invalid value: ${p.hostPort}: must be between 1 and 65535, inclusive`);
    }
    if (p.protocol && !['TCP', 'UDP', 'SCTP'].includes(p.protocol)) {
      errs.push(`${pp}.protocol: Unsupported value: ${q(p.protocol)}: supported values: "SCTP", "TCP", "UDP"`);
    }
  }
  errs.push(...validateResources(c, path));
  const sidecar = init && c.restartPolicy === 'Always';
  if (init && !sidecar) {
    for (const f of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
      if (c[f]) errs.push(`${path}.${f}: Forbidden: may not be set for init containers without restartPolicy=Always`);
    }
  } else {
    // One probe validator for manifests and the prober (handlers, periods, thresholds, named ports).
    errs.push(...validateProbe(c.livenessProbe, 'liveness', c, `${path}.livenessProbe`));
    errs.push(...validateProbe(c.readinessProbe, 'readiness', c, `${path}.readinessProbe`));
    errs.push(...validateProbe(c.startupProbe, 'startup', c, `${path}.startupProbe`));
  }
  return errs;
}

/** Errors of a pod (any value: wrong types are reported, not thrown); empty when valid. */
export function validatePod(input: unknown): string[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return ['<root>: Invalid value: must be an object'];
  const typed = checkTypes<V1Pod>(input, 'V1Pod');
  if (!typed.value) return typed.errors;
  return validateTypedPod(typed.value);
}

/** Errors of a pod that passed the type check (checkTypes(…, "V1Pod")). */
export function validateTypedPod(pod: V1Pod): string[] {
  const errs = validatePodMeta(pod.metadata);
  const spec = pod.spec;
  if (!spec) return [...errs, 'spec: Required value'];
  errs.push(...validatePodVolumes(spec));
  const seen = new Set<string>();
  for (const [i, c] of (spec.initContainers ?? []).entries()) errs.push(...validateContainer(c, `spec.initContainers[${i}]`, seen, true));
  if (!spec.containers || spec.containers.length === 0) errs.push('spec.containers: Required value');
  for (const [i, c] of (spec.containers ?? []).entries()) errs.push(...validateContainer(c, `spec.containers[${i}]`, seen, false));
  const rp = spec.restartPolicy;
  if (rp !== undefined && !['Always', 'OnFailure', 'Never'].includes(rp)) {
    errs.push(`spec.restartPolicy: Unsupported value: ${q(rp)}: supported values: "Always", "OnFailure", "Never"`);
  }
  const g = spec.terminationGracePeriodSeconds;
  if (g !== undefined && (!Number.isInteger(g) || g < 0)) {
    errs.push(`spec.terminationGracePeriodSeconds: Invalid value: ${g}: must be greater than or equal to 0`);
  }
  const ads = spec.activeDeadlineSeconds;
  if (ads !== undefined && ads !== null && (!Number.isInteger(ads) || ads < 1 || ads > 2 ** 31 - 1)) {
    errs.push(`spec.activeDeadlineSeconds: Invalid value: ${ads}: must be between 1 and 2147483647, inclusive`);
  }
  return errs;
}
