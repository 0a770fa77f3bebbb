/**
 * Downward API values as files (downwardAPI volumes and projections): metadata fields, all labels /
 * annotations as sorted `key="value"` lines, and container resources (limits / requests with a divisor).
 */
import type { V1Container, V1DownwardAPIVolumeFile, V1Pod } from '@kubernetes/client-node';
import { tryParseQuantity } from '../util/quantity.ts';

export type FieldResult = { ok: true; value: string } | { ok: false; message: string };

/** The kubelet's FormatMap: `key="value"` lines, sorted by key. */
export function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify(m?.[k] ?? '')}`)
    .join('\n');
}

export function volumeFieldValue(pod: V1Pod, fieldPath: string): FieldResult {
  const m = pod.metadata ?? {};
  const sel = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (sel) return { ok: true, value: (sel[1] === 'labels' ? m.labels : m.annotations)?.[sel[2] ?? ''] ?? '' };
  switch (fieldPath) {
    case 'metadata.name':
      return { ok: true, value: m.name ?? '' };
    case 'metadata.namespace':
      return { ok: true, value: m.namespace ?? 'default' };
    case 'metadata.uid':
      return { ok: true, value: m.uid ?? '' };
    case 'metadata.labels':
      return { ok: true, value: formatMap(m.labels) };
    case 'metadata.annotations':
      return { ok: true, value: formatMap(m.annotations) };
    default:
      return { ok: false, message: `unsupported fieldPath: ${fieldPath}` };
  }
}

/** Node allocatable (the Node's status.allocatable) used when a container sets no limit. */
export interface NodeAllocatable {
  cpuMilli?: number;
  memoryBytes?: number;
  ephemeralStorageBytes?: number;
}

type ResourceRef = NonNullable<V1DownwardAPIVolumeFile['resourceFieldRef']>;

/** Quantity.MilliValue / Quantity.Value: rounded up, float noise dropped. */
function scaled(v: number, milli: boolean): number {
  const x = milli ? v * 1000 : v;
  const r = Math.round(x);
  return Math.abs(x - r) < 1e-9 ? r : Math.ceil(x);
}

function quantity(q: unknown): { ok: true; value: number | undefined } | { ok: false; message: string } {
  if (q === undefined || q === null || q === '') return { ok: true, value: undefined };
  const p = tryParseQuantity(typeof q === 'number' ? q : String(q));
  return p.ok ? { ok: true, value: p.value } : { ok: false, message: p.reason };
}

/**
 * The kubelet's ExtractContainerResourceValue on a container whose limits were merged with the node's
 * allocatable (MergeContainerResourceLimits, kubelet defaultPodLimitsForDownwardAPI): cpu as
 * ceil(milli / divisor milli), memory / ephemeral-storage / hugepages as ceil(value / divisor value); a zero or
 * absent divisor is 1. A missing request is 0 (the pod reaching the kubelet has had requests defaulted to limits).
 */
export function containerResourceValue(c: V1Container, ref: ResourceRef, alloc: NodeAllocatable = {}): FieldResult {
  const m = /^(limits|requests)\.(cpu|memory|ephemeral-storage|hugepages-.+)$/.exec(ref.resource);
  if (!m) return { ok: false, message: `unsupported container resource : ${ref.resource}` };
  const kind = m[1] as 'limits' | 'requests';
  const res = m[2] as string;
  const lim = quantity(c.resources?.limits?.[res]);
  if (!lim.ok) return lim;
  let value: number | undefined;
  if (kind === 'requests') {
    const req = quantity(c.resources?.requests?.[res]);
    if (!req.ok) return req;
    value = req.value ?? 0;
  } else if (lim.value !== undefined && lim.value !== 0) value = lim.value;
  else {
    const a = res === 'cpu' ? alloc.cpuMilli && alloc.cpuMilli / 1000 : res === 'memory' ? alloc.memoryBytes : res === 'ephemeral-storage' ? alloc.ephemeralStorageBytes : undefined;
    value = a ?? lim.value ?? 0;
  }
  const d = quantity(ref.divisor);
  if (!d.ok) return d;
  const cpu = res === 'cpu';
  const divisor = d.value ? scaled(d.value, cpu) : cpu ? 1000 : 1;
  return { ok: true, value: String(Math.ceil(scaled(value, cpu) / Math.max(divisor, 1))) };
}

/** ExtractResourceValueByContainerNameAndNodeAllocatable: the named container of the pod (init included). */
export function resourceValue(pod: V1Pod, ref: ResourceRef, alloc: NodeAllocatable = {}): FieldResult {
  const c = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((x) => x.name === ref.containerName);
  if (!c) return { ok: false, message: `container ${ref.containerName ?? ''} not found` };
  return containerResourceValue(c, ref, alloc);
}
