/**
 * Probe validation with the API server's message shapes (`<field path>: <type>: <detail>`). Applied to the
 * probe as written (before defaulting): an absent field takes the kubelet default, an explicit zero or
 * negative period/timeout/threshold is refused ("must be greater than or equal to 1").
 */
import type { V1Container, V1Pod, V1Probe } from '@kubernetes/client-node';
import type { ProbeType } from './types.ts';

const q = (v: unknown) => JSON.stringify(v);
const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const AT_LEAST_ONE = ['timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const;
const IANA_SVC_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

function fieldName(t: ProbeType): string {
  return `${t}Probe`;
}

function validatePort(port: unknown, path: string, container: V1Container): string[] {
  if (typeof port === 'number') {
    return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [`${path}: Invalid value: ${port}: must be between 1 and 65535, inclusive`];
  }
  if (typeof port !== 'string' || port === '') return [`${path}: Required value`];
  if (port.length > 15) return [`${path}: Invalid value: ${q(port)}: must be no more than 15 characters`];
  if (!IANA_SVC_NAME.test(port) || !/[a-z]/.test(port) || port.includes('--')) {
    return [`${path}: Invalid value: ${q(port)}: must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`];
  }
  if (!(container.ports ?? []).some((p) => p.name === port)) {
    return [`${path}: Not found: ${q(port)}: port name is not declared by the container (spec ports[*].name)`];
  }
  return [];
}

function validateHandler(p: V1Probe, path: string, container: V1Container): string[] {
  const set = HANDLERS.filter((h) => p[h] !== undefined && p[h] !== null);
  if (set.length === 0) return [`${path}: Required value: must specify a handler type`];
  const errs = set.slice(1).map((h) => `${path}.${h}: Forbidden: may not specify more than 1 handler type`);
  if (p.exec && (p.exec.command ?? []).length === 0) errs.push(`${path}.exec.command: Required value`);
  if (p.httpGet) {
    errs.push(...validatePort(p.httpGet.port, `${path}.httpGet.port`, container));
    const scheme = p.httpGet.scheme;
    if (scheme !== undefined && scheme !== 'HTTP' && scheme !== 'HTTPS') {
      errs.push(`${path}.httpGet.scheme: Unsupported value: ${q(scheme)}: supported values: "HTTP", "HTTPS"`);
    }
    for (const [i, h] of (p.httpGet.httpHeaders ?? []).entries()) {
      if (!/^[-A-Za-z0-9!#$%&'*+.^_`|~]+$/.test(h.name ?? '')) {
        errs.push(`${path}.httpGet.httpHeaders[${i}].name: Invalid value: ${q(h.name)}: a valid HTTP header must consist of alphanumeric characters or '-'`);
      }
    }
  }
  if (p.tcpSocket) errs.push(...validatePort(p.tcpSocket.port, `${path}.tcpSocket.port`, container));
  if (p.grpc) {
    const port = p.grpc.port;
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      errs.push(`${path}.grpc.port: Invalid value: ${port}: must be between 1 and 65535, inclusive`);
    }
  }
  return errs;
}

/** Errors of one probe of `container` (empty when valid). `path` defaults to `<type>Probe` (relative). */
export function validateProbe(probe: V1Probe | undefined, type: ProbeType, container: V1Container, path?: string): string[] {
  if (!probe) return [];
  const at = path ?? fieldName(type);
  const errs = validateHandler(probe, at, container);
  const delay = probe.initialDelaySeconds;
  if (delay !== undefined && (!Number.isInteger(delay) || delay < 0)) {
    errs.push(`${at}.initialDelaySeconds: Invalid value: ${delay}: must be greater than or equal to 0`);
  }
  for (const f of AT_LEAST_ONE) {
    const v = probe[f];
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) errs.push(`${at}.${f}: Invalid value: ${v}: must be greater than or equal to 1`);
  }
  const st = probe.successThreshold;
  if (type !== 'readiness' && st !== undefined && Number.isInteger(st) && st > 1) {
    errs.push(`${at}.successThreshold: Invalid value: ${st}: must be 1`);
  }
  const g = probe.terminationGracePeriodSeconds;
  if (g !== undefined && g !== null) {
    if (type === 'readiness') errs.push(`${at}.terminationGracePeriodSeconds: Invalid value: ${g}: must not be set for readinessProbes`);
    else if (!Number.isInteger(g) || g <= 0) errs.push(`${at}.terminationGracePeriodSeconds: Invalid value: ${g}: must be greater than 0`);
  }
  return errs;
}

/** Every probe of the pod's containers (and sidecar init containers), with API field paths. */
export function validatePodProbes(pod: V1Pod): string[] {
  const errs: string[] = [];
  const each = (list: V1Container[] | undefined, field: 'containers' | 'initContainers') => {
    for (const [i, c] of (list ?? []).entries()) {
      if (field === 'initContainers' && c.restartPolicy !== 'Always') continue;
      for (const t of ['liveness', 'readiness', 'startup'] as const) {
        const p = t === 'liveness' ? c.livenessProbe : t === 'readiness' ? c.readinessProbe : c.startupProbe;
        errs.push(...validateProbe(p, t, c, `spec.${field}[${i}].${fieldName(t)}`));
      }
    }
  };
  each(pod.spec?.initContainers, 'initContainers');
  each(pod.spec?.containers, 'containers');
  return errs;
}
