/**
 * The topology manager's hint merging (policy.go v1.28: filterProvidersHints, mergePermutation, HintMerger,
 * iterateAllProviderTopologyHints) and its four policies (policy_none.go, policy_best_effort.go,
 * policy_restricted.go, policy_single_numa_node.go).
 */
import { BitMask } from './bitmask.ts';
import type { NUMAInfo, PolicyOptions } from './numa-info.ts';
import {
  POLICY_BEST_EFFORT,
  POLICY_NONE,
  POLICY_RESTRICTED,
  POLICY_SINGLE_NUMA_NODE,
  type Policy,
  type TopologyHint,
  type TopologyHints,
  type TopologyPolicyName,
} from './types.ts';

/** One list of hints per resource; a provider without hints counts as one {any, preferred} resource. */
export function filterProvidersHints(providersHints: readonly TopologyHints[]): TopologyHint[][] {
  const all: TopologyHint[][] = [];
  for (const hints of providersHints) {
    if (!hints || Object.keys(hints).length === 0) {
      all.push([{ numaNodeAffinity: null, preferred: true }]);
      continue;
    }
    for (const resource of Object.keys(hints)) {
      const h = hints[resource];
      if (h === null || h === undefined) all.push([{ numaNodeAffinity: null, preferred: true }]);
      else if (h.length === 0) all.push([{ numaNodeAffinity: null, preferred: false }]);
      else all.push(h);
    }
  }
  return all;
}

/** The permutation's masks ANDed; preferred only when every hint is preferred and every mask is the same. */
export function mergePermutation(defaultAffinity: BitMask, permutation: readonly TopologyHint[]): TopologyHint {
  let preferred = true;
  const masks: BitMask[] = [];
  for (const hint of permutation) {
    if (hint.numaNodeAffinity !== null) {
      masks.push(hint.numaNodeAffinity);
      if (!hint.numaNodeAffinity.isEqual(masks[0]!)) preferred = false;
    }
    if (!hint.preferred) preferred = false;
  }
  return { numaNodeAffinity: defaultAffinity.and(...masks), preferred };
}

/** Every combination of one hint per resource, in nested-loop order. */
export function iterateAllProviderTopologyHints(all: readonly (readonly TopologyHint[])[], callback: (permutation: TopologyHint[]) => void): void {
  const iterate = (i: number, accum: TopologyHint[]): void => {
    if (i === all.length) {
      callback(accum);
      return;
    }
    for (const h of all[i]!) iterate(i + 1, [...accum, h]);
  };
  iterate(0, []);
}

function narrowestHint(hints: readonly TopologyHint[]): TopologyHint | undefined {
  let best: TopologyHint | undefined;
  for (const h of hints) {
    if (h.numaNodeAffinity === null) continue;
    if (!best || h.numaNodeAffinity.isNarrowerThan(best.numaNodeAffinity!)) best = h;
  }
  return best;
}

/** The largest, over resources, of the node count of the resource's narrowest hint. */
export function maxOfMinAffinityCounts(filtered: readonly (readonly TopologyHint[])[]): number {
  let max = 0;
  for (const hints of filtered) {
    const n = narrowestHint(hints)?.numaNodeAffinity?.count() ?? 0;
    if (n > max) max = n;
  }
  return max;
}

/** HintMerger: picks the best merged hint over all permutations. */
export class HintMerger {
  bestNonPreferredAffinityCount: number;

  constructor(
    private readonly numaInfo: NUMAInfo,
    private readonly hints: readonly (readonly TopologyHint[])[],
    private readonly policyName: TopologyPolicyName,
    private readonly opts: PolicyOptions,
  ) {
    this.bestNonPreferredAffinityCount = maxOfMinAffinityCounts(hints);
  }

  /** The fitter of two masks: the same → current; else narrowest (closest under prefer-closest-numa-nodes). */
  private compareMasks(current: TopologyHint, candidate: TopologyHint): TopologyHint {
    const cur = current.numaNodeAffinity!;
    const cand = candidate.numaNodeAffinity!;
    if (cand.isEqual(cur)) return current;
    const closest = this.policyName !== POLICY_SINGLE_NUMA_NODE && this.opts.preferClosestNUMA;
    const best = closest ? this.numaInfo.closest(cur, cand) : this.numaInfo.narrowest(cur, cand);
    return best.isEqual(cur) ? current : candidate;
  }

  /** HintMerger.compare, case by case as policy.go documents them (1, 2, 3a, 3b, 3ca, 3cb, 3cc). */
  compare(current: TopologyHint | undefined, candidate: TopologyHint): TopologyHint | undefined {
    const candCount = candidate.numaNodeAffinity!.count();
    if (candCount === 0) return current;
    if (!current) return candidate;
    if (!current.preferred && candidate.preferred) return candidate;
    if (current.preferred && !candidate.preferred) return current;
    if (current.preferred && candidate.preferred) return this.compareMasks(current, candidate);
    const best = this.bestNonPreferredAffinityCount;
    const curCount = current.numaNodeAffinity!.count();
    if (curCount > best) return this.compareMasks(current, candidate);
    if (curCount === best) return candCount !== best ? current : this.compareMasks(current, candidate);
    if (candCount > best) return current;
    if (candCount === best) return candidate;
    if (candCount > curCount) return candidate;
    if (candCount < curCount) return current;
    return this.compareMasks(current, candidate);
  }

  merge(): TopologyHint {
    const defaultAffinity = this.numaInfo.defaultAffinityMask();
    let best: TopologyHint | undefined;
    iterateAllProviderTopologyHints(this.hints, (permutation) => {
      best = this.compare(best, mergePermutation(defaultAffinity, permutation));
    });
    return best ?? { numaNodeAffinity: defaultAffinity, preferred: false };
  }
}

/** Only the hints of one NUMA node (or no preference) that are preferred. */
export function filterSingleNumaHints(all: readonly (readonly TopologyHint[])[]): TopologyHint[][] {
  return all.map((hints) => hints.filter((h) => h.preferred && (h.numaNodeAffinity === null || h.numaNodeAffinity.count() === 1)));
}

/** policy_none.go: no merging, every pod admitted. */
export class NonePolicy implements Policy {
  readonly name = POLICY_NONE;
  merge(): { hint: TopologyHint; admit: boolean } {
    return { hint: { numaNodeAffinity: null, preferred: false }, admit: true };
  }
}

/** policy_best_effort.go: the best merged hint, every pod admitted. */
export class BestEffortPolicy implements Policy {
  readonly name: TopologyPolicyName = POLICY_BEST_EFFORT;
  constructor(
    protected readonly numaInfo: NUMAInfo,
    protected readonly opts: PolicyOptions,
  ) {}

  protected canAdmit(_hint: TopologyHint): boolean {
    return true;
  }

  merge(providersHints: readonly TopologyHints[]): { hint: TopologyHint; admit: boolean } {
    const hint = new HintMerger(this.numaInfo, filterProvidersHints(providersHints), this.name, this.opts).merge();
    return { hint, admit: this.canAdmit(hint) };
  }
}

/** policy_restricted.go: as best-effort, admitted only with a preferred hint. */
export class RestrictedPolicy extends BestEffortPolicy {
  override readonly name: TopologyPolicyName = POLICY_RESTRICTED;
  protected override canAdmit(hint: TopologyHint): boolean {
    return hint.preferred;
  }
}

/** policy_single_numa_node.go: only single-NUMA preferred hints; the any-NUMA result is reported as nil. */
export class SingleNumaNodePolicy implements Policy {
  readonly name = POLICY_SINGLE_NUMA_NODE;
  constructor(
    private readonly numaInfo: NUMAInfo,
    private readonly opts: PolicyOptions,
  ) {}

  merge(providersHints: readonly TopologyHints[]): { hint: TopologyHint; admit: boolean } {
    const single = filterSingleNumaHints(filterProvidersHints(providersHints));
    let hint = new HintMerger(this.numaInfo, single, this.name, this.opts).merge();
    if (hint.numaNodeAffinity?.isEqual(this.numaInfo.defaultAffinityMask())) hint = { numaNodeAffinity: null, preferred: hint.preferred };
    return { hint, admit: hint.preferred };
  }
}

/** The policy for `topologyManagerPolicy` (none is handled by the none scope, as NewManager does). */
export function newPolicy(name: string, numaInfo: NUMAInfo, opts: PolicyOptions): Policy {
  switch (name) {
    case POLICY_NONE:
      return new NonePolicy();
    case POLICY_BEST_EFFORT:
      return new BestEffortPolicy(numaInfo, opts);
    case POLICY_RESTRICTED:
      return new RestrictedPolicy(numaInfo, opts);
    case POLICY_SINGLE_NUMA_NODE:
      return new SingleNumaNodePolicy(numaInfo, opts);
    default:
      throw new Error(`unknown policy: "${name}"`);
  }
}
