/**
 * Pod QoS class from requests and limits, as upstream qos.GetPodQOS: only cpu and memory count; a request
 * or limit of zero counts as absent; requests default to limits (API defaulting).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { tryParseQuantity } from '../util/quantity.ts';
import type { QOSClass } from './types.ts';

const SUPPORTED = ['cpu', 'memory'] as const;
type Res = (typeof SUPPORTED)[number];

function positive(q: string | undefined): number | undefined {
  if (q === undefined) return undefined;
  const r = tryParseQuantity(q);
  return r.ok && r.value > 0 ? r.value : undefined;
}

function containerAmounts(c: V1Container): { req: Partial<Record<Res, number>>; lim: Partial<Record<Res, number>> } {
  const req: Partial<Record<Res, number>> = {};
  const lim: Partial<Record<Res, number>> = {};
  for (const r of SUPPORTED) {
    const l = positive(c.resources?.limits?.[r]);
    const explicit = c.resources?.requests?.[r];
    const q = explicit !== undefined ? positive(explicit) : l;
    if (q !== undefined) req[r] = q;
    if (l !== undefined) lim[r] = l;
  }
  return { req, lim };
}

export function getPodQOS(pod: V1Pod): QOSClass {
  if (pod.status?.qosClass === 'Guaranteed' || pod.status?.qosClass === 'Burstable' || pod.status?.qosClass === 'BestEffort') {
    return pod.status.qosClass;
  }
  return computePodQOS(pod);
}

/** Computes the class from the spec, ignoring status.qosClass. */
export function computePodQOS(pod: V1Pod): QOSClass {
  const requests: Partial<Record<Res, number>> = {};
  const limits: Partial<Record<Res, number>> = {};
  let guaranteed = true;
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  for (const c of containers) {
    const { req, lim } = containerAmounts(c);
    for (const r of SUPPORTED) {
      if (req[r] !== undefined) requests[r] = (requests[r] ?? 0) + req[r];
      if (lim[r] !== undefined) limits[r] = (limits[r] ?? 0) + lim[r];
    }
    if (lim.cpu === undefined || lim.memory === undefined) guaranteed = false;
  }
  const reqKeys = Object.keys(requests) as Res[];
  const limKeys = Object.keys(limits) as Res[];
  if (reqKeys.length === 0 && limKeys.length === 0) return 'BestEffort';
  if (guaranteed) {
    for (const r of reqKeys) if (limits[r] !== requests[r]) guaranteed = false;
  }
  return guaranteed && reqKeys.length === limKeys.length ? 'Guaranteed' : 'Burstable';
}
