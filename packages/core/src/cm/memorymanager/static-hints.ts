/**
 * The static policy's requests and NUMA hints (memorymanager/policy_static.go v1.28: getRequestedResources,
 * getPodRequestedResources, calculateHints, regenerateHints, findBestHint, isAffinitySatisfyRequest,
 * isHintInGroup, areGroupsEqual).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { tryParseQuantity } from '../../util/quantity.ts';
import { BitMask, iterateBitMasks } from '../topologymanager/bitmask.ts';
import type { TopologyHint } from '../topologymanager/types.ts';
import { isMemoryResource, type Block, type NUMANodeMap } from './state.ts';

/** Memory type → requested bytes. */
export type Requests = Map<string, number>;

/**
 * getRequestedResources: the container's memory and hugepages requests (a limit stands for a request not given, as
 * the API server defaults it; static pods are not defaulted).
 */
export function containerRequests(c: V1Container): Requests {
  const out: Requests = new Map();
  const merged = { ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) } as Record<string, string | number>;
  for (const [name, q] of Object.entries(merged)) {
    if (!isMemoryResource(name)) continue;
    const p = tryParseQuantity(q);
    if (!p.ok || !Number.isSafeInteger(Math.ceil(p.value))) throw new Error('[memorymanager] failed to represent quantity as int64');
    out.set(name, Math.ceil(p.value));
  }
  return out;
}

/** getPodRequestedResources: max(init container peak, app containers + restartable init containers) per type. */
export function podRequests(pod: V1Pod): Requests {
  const byInit: Requests = new Map();
  const byRestartable: Requests = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    for (const [name, q] of containerRequests(c)) {
      if (!byInit.has(name)) byInit.set(name, 0);
      if (c.restartPolicy === 'Always') byRestartable.set(name, (byRestartable.get(name) ?? 0) + q);
      else if ((byRestartable.get(name) ?? 0) + q > byInit.get(name)!) byInit.set(name, (byRestartable.get(name) ?? 0) + q);
    }
  }
  const byApp: Requests = new Map();
  for (const c of pod.spec?.containers ?? []) for (const [name, q] of containerRequests(c)) byApp.set(name, (byApp.get(name) ?? 0) + q);
  const out: Requests = new Map();
  for (const [name, q] of byApp) out.set(name, Math.max(q + (byRestartable.get(name) ?? 0), byInit.get(name) ?? 0));
  return out;
}

export function areGroupsEqual(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  return x.every((v, i) => v === y[i]);
}

/** isHintInGroup: every node of `hint` is in `group`. */
export function isHintInGroup(hint: readonly number[], group: readonly number[]): boolean {
  return hint.every((n) => group.includes(n));
}

/** The memory of `resource` init containers of the pod left for reuse on the mask (set by the policy). */
export type ReusableMemory = (mask: BitMask, resource: string) => number;

/**
 * calculateHints: a hint per NUMA mask with enough allocatable and free memory of every requested type (nodes
 * grouped by an earlier multi-NUMA allocation only usable in that same group); preferred = the fewest nodes.
 */
export function calculateHints(machine: NUMANodeMap, requests: Requests, reusable: ReusableMemory): Record<string, TopologyHint[]> {
  const numaNodes = [...machine.keys()].sort((a, b) => a - b);
  let minAffinitySize = numaNodes.length;
  const hints: Record<string, TopologyHint[]> = {};
  iterateBitMasks(numaNodes, (mask) => {
    const bits = mask.getBits();
    const single = bits.length === 1;
    const free = new Map<string, number>();
    const allocatable = new Map<string, number>();
    for (const id of bits) {
      for (const name of requests.keys()) {
        const t = machine.get(id)!.memoryMap[name];
        free.set(name, (free.get(name) ?? 0) + (t?.free ?? 0));
        allocatable.set(name, (allocatable.get(name) ?? 0) + (t?.allocatable ?? 0));
      }
    }
    for (const [name, size] of requests) if ((allocatable.get(name) ?? 0) < size) return;
    if (mask.count() < minAffinitySize) minAffinitySize = mask.count();
    if (single && machine.get(bits[0]!)!.cells.length > 1) return;
    for (const id of bits) {
      const n = machine.get(id)!;
      if (!single && n.numberOfAssignments > 0) {
        if (n.cells.length === 1) return;
        if (!areGroupsEqual(n.cells, bits)) return;
      }
    }
    for (const [name, size] of requests) if ((free.get(name) ?? 0) + reusable(mask, name) < size) return;
    for (const name of requests.keys()) (hints[name] ??= []).push({ numaNodeAffinity: mask, preferred: false });
  });
  for (const list of Object.values(hints)) for (const h of list) h.preferred = h.numaNodeAffinity!.count() === minAffinitySize;
  return hints;
}

/** regenerateHints: the blocks already assigned, as preferred hints (null when they no longer match the requests). */
export function regenerateHints(blocks: readonly Block[], requests: Requests): Record<string, TopologyHint[]> | null {
  if (blocks.length !== requests.size) return null;
  const hints: Record<string, TopologyHint[]> = Object.fromEntries([...requests.keys()].map((k) => [k, []]));
  for (const b of blocks) {
    if (!requests.has(b.type) || b.size !== requests.get(b.type)) return null;
    hints[b.type]!.push({ numaNodeAffinity: BitMask.of(...b.numaAffinity), preferred: true });
  }
  return hints;
}

/** findBestHint: preferred first, then the narrowest. */
export function findBestHint(hints: readonly TopologyHint[]): TopologyHint {
  let best: TopologyHint = { numaNodeAffinity: null, preferred: false };
  for (const h of hints) {
    if (best.numaNodeAffinity === null) best = h;
    else if (h.preferred && !best.preferred) best = h;
    else if (h.preferred === best.preferred && h.numaNodeAffinity!.isNarrowerThan(best.numaNodeAffinity!)) best = h;
  }
  return best;
}

/** isAffinitySatisfyRequest: the mask's free memory covers every requested type. */
export function affinitySatisfies(machine: NUMANodeMap, mask: BitMask, requests: Requests): boolean {
  for (const [name, size] of requests) {
    let free = 0;
    for (const id of mask.getBits()) free += machine.get(id)?.memoryMap[name]?.free ?? 0;
    if (free < size) return false;
  }
  return true;
}
