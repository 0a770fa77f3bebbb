/** Builds the AdmitNode view from quantities as a Node's status.allocatable spells them. */
import { tryParseQuantity } from '../util/quantity.ts';
import { DEFAULT_MAX_PODS, type AdmitNode } from './types.ts';

export type AdmitNodeResult = { ok: true; node: AdmitNode } | { ok: false; reason: string };

/**
 * @param allocatable e.g. { cpu: '2', memory: '3928Mi', pods: '110' } (pods defaults to maxPods 110)
 */
export function admitNodeFrom(
  name: string,
  labels: Record<string, string>,
  allocatable: Record<string, string>,
  extra: Pick<AdmitNode, 'pressure' | 'taints'> = {},
): AdmitNodeResult {
  const out: AdmitNode['allocatable'] = { cpuMilli: 0, memoryBytes: 0, pods: DEFAULT_MAX_PODS };
  for (const [k, v] of Object.entries(allocatable)) {
    const r = tryParseQuantity(v);
    if (!r.ok) return { ok: false, reason: `allocatable ${k}: ${r.reason}` };
    if (k === 'cpu') out.cpuMilli = Math.floor(r.value * 1000 + 1e-9);
    else if (k === 'memory') out.memoryBytes = Math.floor(r.value);
    else if (k === 'pods') out.pods = Math.floor(r.value);
    else out[k] = r.value;
  }
  return { ok: true, node: { name, labels: { 'kubernetes.io/hostname': name, ...labels }, allocatable: out, ...extra } };
}
