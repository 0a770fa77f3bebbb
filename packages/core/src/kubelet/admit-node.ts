/** The node as pod admission sees it: labels, allocatable (capacity − reserved − hard eviction), pressure. */
import type { AdmitNode } from '../lifecycle/types.ts';
import type { KubeletConfig } from './config.ts';
import type { NodeAllocatable } from '../volume/downward-api.ts';
import { tryParseQuantity } from '../util/quantity.ts';

export function admitNodeOf(
  c: KubeletConfig,
  fromCm: { cpuMilli: number; memoryBytes: number } | undefined,
  pressure: AdmitNode['pressure'],
): AdmitNode {
  // The configured allocatable wins; else the container manager's, when the kubelet has one.
  const alloc = c.allocatable ?? fromCm;
  return {
    name: c.nodeName,
    labels: { 'kubernetes.io/hostname': c.nodeName, 'kubernetes.io/os': 'linux', ...(c.nodeLabels ?? {}) },
    allocatable: {
      cpuMilli: alloc?.cpuMilli ?? Number.MAX_SAFE_INTEGER,
      memoryBytes: alloc?.memoryBytes ?? Number.MAX_SAFE_INTEGER,
      pods: c.maxPods,
    },
    pressure,
  };
}

/**
 * The allocatable the downward API gives a container without limits (kubelet getNodeAnyWay().Status.Allocatable):
 * the Node's status as last reported (API-server mode), else the configured allocatable, else the container
 * manager's (capacity − reserved − hard eviction, as the kubelet's initial node).
 */
export function downwardAllocatableOf(
  c: KubeletConfig,
  reported: Record<string, string> | undefined,
  fromCm: { cpuMilli: number; memoryBytes: number; ephemeralStorageBytes?: number } | undefined,
): NodeAllocatable {
  const q = (k: string, scale: number): number | undefined => {
    const p = reported?.[k] !== undefined ? tryParseQuantity(reported[k] as string) : undefined;
    return p?.ok ? Math.ceil(Math.round(p.value * scale * 1e6) / 1e6) : undefined;
  };
  const base = c.allocatable ?? fromCm;
  const out: NodeAllocatable = {};
  const cpu = q('cpu', 1000) ?? base?.cpuMilli;
  const mem = q('memory', 1) ?? base?.memoryBytes;
  const eph = q('ephemeral-storage', 1) ?? fromCm?.ephemeralStorageBytes;
  if (cpu !== undefined) out.cpuMilli = cpu;
  if (mem !== undefined) out.memoryBytes = mem;
  if (eph !== undefined) out.ephemeralStorageBytes = eph;
  return out;
}
