/**
 * Pod validation with the API server's messages (field path: error), for the fields the kubelet depends on.
 * Returns the list of errors; empty when valid.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { validateProbe } from '../prober/validation.ts';
import { tryParseQuantity } from '../util/quantity.ts';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const q = (v: unknown) => JSON.stringify(v);

export function validateDnsLabel(path: string, v: string): string[] {
  if (v.length > 63) return [`${path}: Invalid value: ${q(v)}: must be no more than 63 characters`];
  return DNS1123_LABEL.test(v) ? [] : [`${path}: Invalid value: ${q(v)}: ${LABEL_MSG}`];
}

export function validateDnsSubdomain(path: string, v: string): string[] {
  if (v.length > 253) return [`${path}: Invalid value: ${q(v)}: must be no more than 253 characters`];
  return DNS1123_SUBDOMAIN.test(v) ? [] : [`${path}: Invalid value: ${q(v)}: ${SUBDOMAIN_MSG}`];
}

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
      errs.push(`${pp}.containerPort: Invalid value: ${p.containerPort}: must be between 1 and 65535, inclusive`);
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

export function validatePod(pod: V1Pod): string[] {
  const errs: string[] = [];
  const name = pod.metadata?.name;
  if (!name) errs.push('metadata.name: Required value: name or generateName is required');
  else errs.push(...validateDnsSubdomain('metadata.name', name));
  const ns = pod.metadata?.namespace;
  if (ns !== undefined && ns !== '') errs.push(...validateDnsLabel('metadata.namespace', ns));
  const spec = pod.spec;
  if (!spec) return [...errs, 'spec: Required value'];
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
  return errs;
}
