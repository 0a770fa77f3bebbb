/**
 * Topology and memory manager settings, the kubelet's names: topologyManagerPolicy / --topology-manager-policy
 * (none | best-effort | restricted | single-numa-node), topologyManagerScope / --topology-manager-scope
 * (container | pod), topologyManagerPolicyOptions / --topology-manager-policy-options (prefer-closest-numa-nodes),
 * memoryManagerPolicy / --memory-manager-policy (None | Static), reservedMemory / --reserved-memory
 * ("0:memory=1Gi,hugepages-1Gi=2Gi;1:memory=1Gi"; the flag wins over the file's list).
 */
import { parseReservedMemoryFlag, type MemoryReservation, type MemoryManagerSettings, type TopologyManagerSettings } from '@nodelet/core/kubelet';
import { tryParseQuantity } from '@nodelet/core/util';
import type { FlagSpec } from './flag-spec.ts';

export interface TopologyMemoryAgentConfig {
  topologyManagerPolicy: string;
  topologyManagerScope: string;
  topologyManagerPolicyOptions?: Record<string, string>;
  memoryManagerPolicy: string;
  /** reservedMemory from the config file: [{numaNode, limits: {memory: "1Gi"}}]. */
  reservedMemory?: Array<Record<string, unknown>>;
  /** --reserved-memory. */
  reservedMemoryFlag: string;
}

export const TOPOLOGY_MEMORY_DEFAULTS: TopologyMemoryAgentConfig = {
  topologyManagerPolicy: 'none',
  topologyManagerScope: 'container',
  memoryManagerPolicy: 'None',
  reservedMemoryFlag: '',
};

export const TOPOLOGY_MEMORY_FLAG_SPECS: FlagSpec<keyof TopologyMemoryAgentConfig>[] = [
  { name: 'topology-manager-policy', kind: 'string', key: 'topologyManagerPolicy', help: 'Topology manager policy: none, best-effort, restricted or single-numa-node (NUMA alignment of CPUs, memory and devices).', defaultText: 'none' },
  { name: 'topology-manager-scope', kind: 'string', key: 'topologyManagerScope', help: 'Scope of the topology alignment: container or pod.', defaultText: 'container' },
  { name: 'topology-manager-policy-options', kind: 'map=', key: 'topologyManagerPolicyOptions', help: 'Topology manager policy options, e.g. prefer-closest-numa-nodes=true.' },
  { name: 'memory-manager-policy', kind: 'string', key: 'memoryManagerPolicy', help: 'Memory manager policy: None or Static (NUMA-pinned memory for Guaranteed pods).', defaultText: 'None' },
  { name: 'reserved-memory', kind: 'string', key: 'reservedMemoryFlag', help: 'Memory reserved per NUMA node, e.g. "0:memory=1Gi;1:memory=1Gi"; must add up to kube-reserved + system-reserved + the memory.available hard eviction threshold.' },
];

export const TOPOLOGY_MEMORY_FILE_FIELDS = [
  { path: 'topologyManagerPolicy', key: 'topologyManagerPolicy', kind: 'string' },
  { path: 'topologyManagerScope', key: 'topologyManagerScope', kind: 'string' },
  { path: 'topologyManagerPolicyOptions', key: 'topologyManagerPolicyOptions', kind: 'map' },
  { path: 'memoryManagerPolicy', key: 'memoryManagerPolicy', kind: 'string' },
  { path: 'reservedMemory', key: 'reservedMemory', kind: 'objects' },
] as const;

/** reservedMemory from the flag or the file, checked entry by entry; a string is the first problem. */
export function reservedMemoryOf(c: TopologyMemoryAgentConfig): MemoryReservation[] | string {
  if (c.reservedMemoryFlag) {
    try {
      return parseReservedMemoryFlag(c.reservedMemoryFlag);
    } catch (err) {
      return `--reserved-memory: ${(err as Error).message}`;
    }
  }
  const out: MemoryReservation[] = [];
  for (const [i, r] of (c.reservedMemory ?? []).entries()) {
    const node = r['numaNode'];
    const limits = r['limits'];
    if (typeof node !== 'number' || !Number.isInteger(node) || node < 0) return `reservedMemory[${i}].numaNode: expected a NUMA node id, got ${JSON.stringify(node)}`;
    if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) return `reservedMemory[${i}].limits: expected a map of memory types to quantities`;
    for (const [name, q] of Object.entries(limits)) {
      if (name !== 'memory' && !name.startsWith('hugepages-')) return `reservedMemory[${i}].limits: memory type conversion error, unknown type: ${JSON.stringify(name)}`;
      if ((typeof q !== 'string' && typeof q !== 'number') || !tryParseQuantity(q).ok) return `reservedMemory[${i}].limits.${name}: invalid quantity ${JSON.stringify(q)}`;
    }
    out.push({ numaNode: node, limits: limits as Record<string, string> });
  }
  return out;
}

/** The kubelet's checks (validation.go and the managers' NewManager policy names); the first problem, or undefined. */
export function validateTopologyMemory(c: TopologyMemoryAgentConfig): string | undefined {
  const policies = ['none', 'best-effort', 'restricted', 'single-numa-node'];
  if (!policies.includes(c.topologyManagerPolicy)) return `invalid configuration: topologyManagerPolicy (--topology-manager-policy) "${c.topologyManagerPolicy}" must be one of: [${policies.map((x) => JSON.stringify(x)).join(' ')}]`;
  if (c.topologyManagerScope !== 'container' && c.topologyManagerScope !== 'pod') {
    return `invalid configuration: topologyManagerScope (--topology-manager-scope) "${c.topologyManagerScope}" must be one of: "container", or "pod"`;
  }
  if (c.memoryManagerPolicy !== 'None' && c.memoryManagerPolicy !== 'Static') return `unknown policy: "${c.memoryManagerPolicy}"`;
  const r = reservedMemoryOf(c);
  return typeof r === 'string' ? r : undefined;
}

/** KubeletConfig.topologyManager and .memoryManager. */
export function coreTopologyMemory(c: TopologyMemoryAgentConfig): { topologyManager: TopologyManagerSettings; memoryManager: MemoryManagerSettings } {
  const reserved = reservedMemoryOf(c);
  return {
    topologyManager: { policy: c.topologyManagerPolicy, scope: c.topologyManagerScope, ...(c.topologyManagerPolicyOptions ? { policyOptions: c.topologyManagerPolicyOptions } : {}) },
    memoryManager: { policy: c.memoryManagerPolicy, ...(typeof reserved !== 'string' && reserved.length > 0 ? { reservedMemory: reserved } : {}) },
  };
}
