/**
 * Node allocatable = capacity − kube-reserved − system-reserved − hard eviction thresholds, per resource,
 * floored at 0 (pure). memory subtracts evictionHard memory.available, ephemeral-storage subtracts
 * nodefs.available; percentages are of capacity. pods are not reserved. The kubepods cgroup limits
 * (what enforceNodeAllocatable "pods" writes) are capacity − reserved, without the eviction part.
 */
import { tryParseQuantityOrPercent } from '../util/quantity.ts';
import { MAX_SHARES, milliCpuToShares } from './cgroup-name.ts';
import type { NodeResources, ResourceConfig, ResourceList } from './types.ts';

export interface AllocatableInput {
  capacity: NodeResources;
  kubeReserved?: ResourceList;
  systemReserved?: ResourceList;
  /** evictionHard, e.g. { 'memory.available': '100Mi', 'nodefs.available': '10%' }. */
  evictionHard?: Record<string, string>;
}

export type AllocatableResult = { ok: true; allocatable: NodeResources } | { ok: false; reason: string; message: string };

type Key = 'cpuMilli' | 'memoryBytes' | 'ephemeralStorageBytes' | 'pids';
const RESOURCE_KEYS: [string, Key][] = [
  ['cpu', 'cpuMilli'],
  ['memory', 'memoryBytes'],
  ['ephemeral-storage', 'ephemeralStorageBytes'],
  ['pid', 'pids'],
];
const EVICTION_KEYS: [string, Key][] = [
  ['memory.available', 'memoryBytes'],
  ['nodefs.available', 'ephemeralStorageBytes'],
];

function reserved(list: ResourceList | undefined, capacity: NodeResources): { ok: true; r: Partial<Record<Key, number>> } | { ok: false; message: string } {
  const r: Partial<Record<Key, number>> = {};
  for (const [name, key] of RESOURCE_KEYS) {
    const q = list?.[name];
    if (q === undefined) continue;
    const total = capacity[key] ?? 0;
    const p = tryParseQuantityOrPercent(q, key === 'cpuMilli' ? total / 1000 : total);
    if (!p.ok) return { ok: false, message: `${name}=${q}: ${p.reason}` };
    r[key] = key === 'cpuMilli' ? Math.ceil(p.value * 1000 - 1e-9) : Math.ceil(p.value - 1e-9);
  }
  return { ok: true, r };
}

export function computeReservation(input: AllocatableInput, withEviction: boolean): { ok: true; r: Partial<Record<Key, number>> } | { ok: false; message: string } {
  const total: Partial<Record<Key, number>> = {};
  for (const list of [input.kubeReserved, input.systemReserved]) {
    const r = reserved(list, input.capacity);
    if (!r.ok) return r;
    for (const [k, v] of Object.entries(r.r) as [Key, number][]) total[k] = (total[k] ?? 0) + v;
  }
  if (withEviction) {
    for (const [signal, key] of EVICTION_KEYS) {
      const q = input.evictionHard?.[signal];
      if (q === undefined) continue;
      const p = tryParseQuantityOrPercent(q, input.capacity[key] ?? 0);
      if (!p.ok) return { ok: false, message: `evictionHard ${signal}=${q}: ${p.reason}` };
      total[key] = (total[key] ?? 0) + Math.ceil(p.value - 1e-9);
    }
  }
  return { ok: true, r: total };
}

export function computeNodeAllocatable(input: AllocatableInput): AllocatableResult {
  const r = computeReservation(input, true);
  if (!r.ok) return { ok: false, reason: 'InvalidNodeAllocatable', message: r.message };
  const c = input.capacity;
  const sub = (k: Key) => Math.max(0, (c[k] ?? 0) - (r.r[k] ?? 0));
  const allocatable: NodeResources = {
    cpuMilli: sub('cpuMilli'),
    memoryBytes: sub('memoryBytes'),
    ephemeralStorageBytes: sub('ephemeralStorageBytes'),
    pods: c.pods,
  };
  if (c.pids !== undefined) allocatable.pids = sub('pids');
  return { ok: true, allocatable };
}

/** Resources of the kubepods cgroup under enforceNodeAllocatable=[pods]: capacity − reserved (no eviction). */
export function kubepodsResources(input: AllocatableInput): { ok: true; resources: ResourceConfig } | { ok: false; reason: string; message: string } {
  const r = computeReservation(input, false);
  if (!r.ok) return { ok: false, reason: 'InvalidNodeAllocatable', message: r.message };
  const c = input.capacity;
  const cpu = Math.max(0, c.cpuMilli - (r.r.cpuMilli ?? 0));
  const resources: ResourceConfig = {
    cpuShares: Math.min(MAX_SHARES, milliCpuToShares(cpu)),
    memoryLimit: Math.max(0, c.memoryBytes - (r.r.memoryBytes ?? 0)),
  };
  if (c.pids !== undefined && r.r.pids !== undefined) resources.pidsLimit = Math.max(0, c.pids - r.r.pids);
  return { ok: true, resources };
}
