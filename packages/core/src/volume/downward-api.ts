/**
 * Downward API values as files (downwardAPI volumes and projections): metadata fields, all labels /
 * annotations as sorted `key="value"` lines, and container resources (limits / requests with a divisor).
 */
import type { V1DownwardAPIVolumeFile, V1Pod } from '@kubernetes/client-node';
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

/** Node allocatable used when a container sets no limit (cores, bytes). */
export interface NodeAllocatable {
  cpu?: number;
  memory?: number;
  ephemeralStorage?: number;
}

export function resourceValue(pod: V1Pod, ref: NonNullable<V1DownwardAPIVolumeFile['resourceFieldRef']>, alloc: NodeAllocatable = {}): FieldResult {
  const c = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((x) => x.name === ref.containerName);
  if (!c) return { ok: false, message: `container ${ref.containerName ?? ''} not found` };
  const [kind, res] = ref.resource.split('.') as [string, string | undefined];
  const fallback = res === 'cpu' ? alloc.cpu : res === 'memory' ? alloc.memory : alloc.ephemeralStorage;
  if ((kind !== 'limits' && kind !== 'requests') || !res || !['cpu', 'memory', 'ephemeral-storage'].includes(res))
    return { ok: false, message: `unsupported container resource : ${ref.resource}` };
  const q = (kind === 'limits' ? c.resources?.limits : c.resources?.requests)?.[res];
  let value: number | undefined;
  if (q !== undefined) {
    const p = tryParseQuantity(String(q));
    if (!p.ok) return { ok: false, message: p.reason };
    value = p.value;
  } else value = kind === 'limits' ? fallback : 0;
  if (value === undefined) return { ok: false, message: `no node allocatable ${res} to default ${ref.resource} to` };
  const d = tryParseQuantity(String(ref.divisor ?? '1'));
  const divisor = d.ok && d.value > 0 ? d.value : 1;
  return { ok: true, value: String(Math.ceil(value / divisor - 1e-9)) };
}
