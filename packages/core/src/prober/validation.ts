/**
 * Probe and lifecycle handler validation with the API server's messages (v1.28 pkg/apis/core/validation:
 * validateProbe, validateLivenessProbe / validateReadinessProbe / validateStartupProbe, validateHandler,
 * ValidatePortNumOrName, validateHTTPGetAction). The API server validates the defaulted probe, so a field left
 * out (or 0, which defaulting replaces) validates as its default: periods, timeouts and thresholds are refused
 * only when negative, an httpGet path or scheme left out is "/" / "HTTP". A port name is checked for its form
 * only: the API server does not require the container to declare it (the prober reports "couldn't find port"
 * when it runs).
 */
import type { V1Container, V1LifecycleHandler, V1Pod, V1Probe } from '@kubernetes/client-node';
import { httpHeaderNameMessages, notSupported, portNameMessages, portNumMessages } from '../config/field-format.ts';
import type { ProbeType } from './types.ts';

const q = (v: unknown) => JSON.stringify(v);
const NON_NEGATIVE = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const;

function fieldName(t: ProbeType): string {
  return `${t}Probe`;
}

/** ValidatePortNumOrName. */
function validatePort(port: unknown, path: string): string[] {
  if (typeof port === 'string') return portNameMessages(port).map((m) => `${path}: Invalid value: ${q(port)}: ${m}`);
  const n = typeof port === 'number' ? port : 0;
  return portNumMessages(n).map((m) => `${path}: Invalid value: ${n}: ${m}`);
}

type Handler = Pick<V1LifecycleHandler, 'exec' | 'httpGet' | 'tcpSocket' | 'sleep'> & Pick<V1Probe, 'grpc'>;
const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep'] as const;

/**
 * validateHandler: exactly one handler, each checked. `gracePeriod` is the pod's terminationGracePeriodSeconds
 * (a lifecycle sleep must fit in it).
 */
export function validateHandler(h: Handler, path: string, gracePeriod?: number): string[] {
  const set = HANDLERS.filter((k) => h[k] !== undefined && h[k] !== null);
  if (set.length === 0) return [`${path}: Required value: must specify a handler type`];
  const errs: string[] = [];
  for (const k of set.slice(1)) errs.push(`${path}.${k}: Forbidden: may not specify more than 1 handler type`);
  const first = set[0];
  if (first === 'exec' && (h.exec?.command ?? []).length === 0) errs.push(`${path}.exec.command: Required value`);
  if (first === 'httpGet' && h.httpGet) {
    const g = h.httpGet;
    errs.push(...validatePort(g.port, `${path}.httpGet.port`));
    if (g.scheme && g.scheme !== 'HTTP' && g.scheme !== 'HTTPS') errs.push(notSupported(`${path}.httpGet.scheme`, g.scheme, ['HTTP', 'HTTPS']));
    for (const hd of g.httpHeaders ?? []) {
      errs.push(...httpHeaderNameMessages(hd.name ?? '').map((m) => `${path}.httpGet.httpHeaders: Invalid value: ${q(hd.name ?? '')}: ${m}`));
    }
  }
  if (first === 'tcpSocket' && h.tcpSocket) errs.push(...validatePort(h.tcpSocket.port, `${path}.tcpSocket.port`));
  if (first === 'grpc' && h.grpc) errs.push(...validatePort(h.grpc.port ?? 0, `${path}.grpc.port`));
  if (first === 'sleep' && h.sleep && gracePeriod !== undefined) {
    const s = h.sleep.seconds ?? 0;
    if (s <= 0 || s > gracePeriod) errs.push(`${path}.sleep: Invalid value: ${s}: must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod})`);
  }
  return errs;
}

/** Errors of one probe (empty when valid). `path` defaults to `<type>Probe` (relative). */
export function validateProbe(probe: V1Probe | undefined, type: ProbeType, path?: string): string[] {
  if (!probe) return [];
  const at = path ?? fieldName(type);
  const errs = validateHandler(probe, at);
  for (const f of NON_NEGATIVE) {
    const v = probe[f];
    if (v !== undefined && v < 0) errs.push(`${at}.${f}: Invalid value: ${v}: must be greater than or equal to 0`);
  }
  const g = probe.terminationGracePeriodSeconds;
  if (g !== undefined && g !== null && g <= 0) {
    errs.push(`${at}.terminationGracePeriodSeconds: Invalid value: ${g}: must be greater than 0`);
  }
  const st = probe.successThreshold;
  if (type !== 'readiness' && st !== undefined && st !== 0 && st !== 1) errs.push(`${at}.successThreshold: Invalid value: ${st}: must be 1`);
  if (type === 'readiness' && g !== undefined && g !== null) {
    errs.push(`${at}.terminationGracePeriodSeconds: Invalid value: ${g}: must not be set for readinessProbes`);
  }
  return errs;
}

/** The probes of a container that may have them (regular containers and sidecar init containers). */
export function validateContainerProbes(c: V1Container, path: string): string[] {
  return [
    ...validateProbe(c.livenessProbe, 'liveness', `${path}.livenessProbe`),
    ...validateProbe(c.readinessProbe, 'readiness', `${path}.readinessProbe`),
    ...validateProbe(c.startupProbe, 'startup', `${path}.startupProbe`),
  ];
}

/** Every probe of the pod's containers (and sidecar init containers), with API field paths. */
export function validatePodProbes(pod: V1Pod): string[] {
  const errs: string[] = [];
  for (const [i, c] of (pod.spec?.initContainers ?? []).entries()) {
    if (c.restartPolicy === 'Always') errs.push(...validateContainerProbes(c, `spec.initContainers[${i}]`));
  }
  for (const [i, c] of (pod.spec?.containers ?? []).entries()) errs.push(...validateContainerProbes(c, `spec.containers[${i}]`));
  return errs;
}
