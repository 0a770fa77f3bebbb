/**
 * The machine's NUMA nodes as the topology manager sees them (numa_info.go, policy_options.go v1.28): node ids,
 * their distances (for prefer-closest-numa-nodes), the any-NUMA default mask, and the two ways to pick the
 * better of two masks (narrowest, closest).
 */
import { BitMask } from './bitmask.ts';
import { PREFER_CLOSEST_NUMA_NODES } from './types.ts';

/** A NUMA node: its id and, when known, its distance to every node (index = node id; sysfs nodeN/distance). */
export interface NumaNode {
  id: number;
  distances?: readonly number[];
}

export interface PolicyOptions {
  preferClosestNUMA: boolean;
}

/** NewPolicyOptions: `topologyManagerPolicyOptions` parsed, with the kubelet's errors for unknown names and bad values. */
export function parsePolicyOptions(options: Readonly<Record<string, string>> = {}): PolicyOptions {
  const opts: PolicyOptions = { preferClosestNUMA: false };
  for (const [name, value] of Object.entries(options)) {
    if (name !== PREFER_CLOSEST_NUMA_NODES) throw new Error(`unknown Topology Manager Policy option: ${JSON.stringify(name)}`);
    const v = parseGoBool(value);
    if (v === undefined) throw new Error(`bad value for option ${JSON.stringify(name)}: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
    opts.preferClosestNUMA = v;
  }
  return opts;
}

/** strconv.ParseBool. */
function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

export class NUMAInfo {
  readonly nodes: readonly number[];
  private readonly distances: ReadonlyMap<number, readonly number[]>;

  constructor(nodes: readonly NumaNode[]) {
    this.nodes = nodes.map((n) => n.id);
    this.distances = new Map(nodes.map((n) => [n.id, n.distances ?? []]));
  }

  /** NewNUMAInfo: with prefer-closest-numa-nodes every node must report its distances. */
  static of(nodes: readonly NumaNode[], opts: PolicyOptions): NUMAInfo {
    if (opts.preferClosestNUMA && nodes.some((n) => !n.distances || n.distances.length === 0)) {
      throw new Error('error getting NUMA distances from cadvisor');
    }
    return new NUMAInfo(nodes);
  }

  /** The any-NUMA mask: every node of the machine. */
  defaultAffinityMask(): BitMask {
    return BitMask.of(...this.nodes);
  }

  narrowest(m1: BitMask, m2: BitMask): BitMask {
    return m1.isNarrowerThan(m2) ? m1 : m2;
  }

  /** Closest: the narrower mask; with as many nodes, the smaller average distance; then more low-numbered bits. */
  closest(m1: BitMask, m2: BitMask): BitMask {
    if (m1.count() !== m2.count()) return this.narrowest(m1, m2);
    const d1 = this.averageDistance(m1);
    const d2 = this.averageDistance(m2);
    if (d1 === d2) return m1.isLessThan(m2) ? m1 : m2;
    return d1 < d2 ? m1 : m2;
  }

  /** NUMADistances.CalculateAverageFor: the mean over every ordered pair of nodes in the mask (self included). */
  averageDistance(mask: BitMask): number {
    const bits = mask.getBits();
    if (bits.length === 0) return 0;
    let sum = 0;
    for (const a of bits) for (const b of bits) sum += this.distances.get(a)?.[b] ?? 0;
    return sum / (bits.length * bits.length);
  }
}
