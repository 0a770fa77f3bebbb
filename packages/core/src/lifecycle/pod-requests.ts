/** A pod's effective resource requests, as the scheduler/kubelet compute them. */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { tryParseQuantity } from '../util/quantity.ts';

export interface PodRequests {
  cpuMilli: number;
  memoryBytes: number;
  /** Other requested resources (ephemeral-storage, extended), base units. */
  other: Record<string, number>;
}

export type RequestsResult = { ok: true; requests: PodRequests } | { ok: false; reason: string };

function containerRequests(c: V1Container): { ok: true; r: Record<string, number> } | { ok: false; reason: string } {
  const r: Record<string, number> = {};
  const names = new Set([...Object.keys(c.resources?.requests ?? {}), ...Object.keys(c.resources?.limits ?? {})]);
  for (const name of names) {
    // Requests default to limits when absent (API defaulting).
    const q = c.resources?.requests?.[name] ?? c.resources?.limits?.[name];
    if (q === undefined) continue;
    const p = tryParseQuantity(q);
    if (!p.ok) return { ok: false, reason: `container ${c.name}: resources ${name}: ${p.reason}` };
    r[name] = name === 'cpu' ? Math.ceil(p.value * 1000 - 1e-9) : Math.ceil(p.value - 1e-9);
  }
  return { ok: true, r };
}

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

function maxInto(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = Math.max(into[k] ?? 0, v);
}

/**
 * Sum of app containers and sidecars (restartable init containers); each regular init container counts with
 * the sidecars started before it; the pod needs the max of both; plus spec.overhead.
 */
export function computePodRequests(pod: V1Pod): RequestsResult {
  const total: Record<string, number> = {};
  const initPeak: Record<string, number> = {};
  const sidecars: Record<string, number> = {};
  for (const c of pod.spec?.initContainers ?? []) {
    const cr = containerRequests(c);
    if (!cr.ok) return cr;
    if (c.restartPolicy === 'Always') {
      add(sidecars, cr.r);
      maxInto(initPeak, sidecars);
    } else {
      const withSidecars = { ...sidecars };
      add(withSidecars, cr.r);
      maxInto(initPeak, withSidecars);
    }
  }
  for (const c of pod.spec?.containers ?? []) {
    const cr = containerRequests(c);
    if (!cr.ok) return cr;
    add(total, cr.r);
  }
  add(total, sidecars);
  maxInto(total, initPeak);
  for (const [k, v] of Object.entries(pod.spec?.overhead ?? {})) {
    const p = tryParseQuantity(v);
    if (!p.ok) return { ok: false, reason: `overhead ${k}: ${p.reason}` };
    total[k] = (total[k] ?? 0) + (k === 'cpu' ? Math.ceil(p.value * 1000) : Math.ceil(p.value));
  }
  const { cpu = 0, memory = 0, ...other } = total;
  return { ok: true, requests: { cpuMilli: cpu, memoryBytes: memory, other } };
}
