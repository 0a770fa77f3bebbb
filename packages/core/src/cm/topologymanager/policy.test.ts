/**
 * The hint merging of each policy, with the expected hints of the kubelet's own tables (pkg/kubelet/cm/
 * topologymanager v1.28 policy_test.go: commonPolicyMergeTestCases, bestEffortPolicy.mergeTestCases /
 * mergeTestCasesNoPolicies / mergeTestCasesClosestNUMA, singleNumaNodePolicy.mergeTestCases,
 * TestMaxOfMinAffinityCounts, TestCompareHintsNarrowest; policy_*_test.go canAdmitPodResult and filter tests).
 * Each case names the upstream case it copies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BitMask } from './bitmask.ts';
import { NUMAInfo, parsePolicyOptions, type NumaNode } from './numa-info.ts';
import { BestEffortPolicy, HintMerger, RestrictedPolicy, SingleNumaNodePolicy, filterSingleNumaHints, maxOfMinAffinityCounts } from './policy.ts';
import { POLICY_BEST_EFFORT, formatHint, type Policy, type TopologyHint, type TopologyHints } from './types.ts';

type Bits = number[] | null;
const h = (bits: Bits, preferred: boolean): TopologyHint => ({ numaNodeAffinity: bits === null ? null : BitMask.of(...bits), preferred });
const P = (bits: Bits): TopologyHint => h(bits, true);
const N = (bits: Bits): TopologyHint => h(bits, false);

/** commonNUMAInfoFourNodes / commonNUMAInfoEightNodes (policy_test.go). */
const FOUR: NumaNode[] = [
  { id: 0, distances: [10, 11, 12, 12] },
  { id: 1, distances: [11, 10, 12, 12] },
  { id: 2, distances: [12, 12, 10, 11] },
  { id: 3, distances: [12, 12, 11, 10] },
];
const EIGHT: NumaNode[] = [
  [10, 11, 12, 12, 30, 30, 30, 30],
  [11, 10, 12, 12, 30, 30, 30, 30],
  [12, 12, 10, 11, 30, 30, 30, 30],
  [12, 12, 11, 10, 30, 30, 30, 30],
  [30, 30, 30, 30, 10, 11, 12, 12],
  [30, 30, 30, 30, 11, 10, 12, 12],
  [30, 30, 30, 30, 12, 12, 10, 11],
  [30, 30, 30, 30, 12, 12, 13, 10],
].map((distances, id) => ({ id, distances }));

type Case = [name: string, providers: TopologyHints[], expected: TopologyHint];

/** commonPolicyMergeTestCases: the same answer under best-effort, restricted and single-numa-node. */
const common: Case[] = [
  ['Two providers, 1 hint each, same mask, both preferred 1/2', [{ resource1: [P([0])] }, { resource2: [P([0])] }], P([0])],
  ['Two providers, 1 hint each, same mask, both preferred 2/2', [{ resource1: [P([1])] }, { resource2: [P([1])] }], P([1])],
  ['Two providers, 1 no hints, 1 single hint preferred 1/2', [null, { resource: [P([0])] }], P([0])],
  ['Two providers, 1 no hints, 1 single hint preferred 2/2', [null, { resource: [P([1])] }], P([1])],
  ['Two providers, 1 with 2 hints, 1 with single hint matching 1/2', [{ resource1: [P([0]), P([1])] }, { resource2: [P([0])] }], P([0])],
  ['Two providers, 1 with 2 hints, 1 with single hint matching 2/2', [{ resource1: [P([0]), P([1])] }, { resource2: [P([1])] }], P([1])],
  ['Two providers, both with 2 hints, matching narrower preferred hint from both', [{ resource1: [P([0]), P([1])] }, { resource2: [P([0]), N([0, 1])] }], P([0])],
  ['Ensure less narrow preferred hints are chosen over narrower non-preferred hints', [{ resource1: [P([1]), N([0, 1])] }, { resource2: [P([0]), P([1]), N([0, 1])] }], P([1])],
  ['Multiple resources, same provider', [{ resource1: [P([1]), N([0, 1])], resource2: [P([0]), P([1]), N([0, 1])] }], P([1])],
];

/** bestEffortPolicy.mergeTestCases (restricted embeds bestEffortPolicy and runs the same table). */
const bestEffort: Case[] = [
  ['Two providers, 2 hints each, same mask (some with different bits), same preferred', [{ resource1: [P([0, 1]), P([0, 2])] }, { resource2: [P([0, 1]), P([0, 2])] }], P([0, 1])],
  ['TopologyHint not set', [], P([0, 1, 2, 3])],
  ['HintProvider returns empty non-nil map[string][]TopologyHint', [{}], P([0, 1, 2, 3])],
  ['HintProvider returns -nil map[string][]TopologyHint from provider', [{ resource: null }], P([0, 1, 2, 3])],
  ['HintProvider returns empty non-nil map[string][]TopologyHint from provider', [{ resource: [] }], N([0, 1, 2, 3])],
  ['Single TopologyHint with Preferred as true and NUMANodeAffinity as nil', [{ resource: [P(null)] }], P([0, 1, 2, 3])],
  ['Single TopologyHint with Preferred as false and NUMANodeAffinity as nil', [{ resource: [N(null)] }], N([0, 1, 2, 3])],
  ['Two providers, 1 hint each, no common mask', [{ resource1: [P([0])] }, { resource2: [P([1])] }], N([0, 1, 2, 3])],
  ['Two providers, 1 hint each, same mask, 1 preferred, 1 not 1/2', [{ resource1: [P([0])] }, { resource2: [N([0])] }], N([0])],
  ['Two providers, 1 hint each, same mask, 1 preferred, 1 not 2/2', [{ resource1: [P([1])] }, { resource2: [N([1])] }], N([1])],
  ['Two providers, 1 hint each, 1 wider mask, both preferred 1/2', [{ resource1: [P([0])] }, { resource2: [P([0, 1])] }], N([0])],
  ['Two providers, 1 with 2 hints, 1 with single non-preferred hint matching', [{ resource1: [P([0]), P([1])] }, { resource2: [N([0, 1])] }], N([0])],
  ['Two providers, 1 hint each, 1 wider mask, both preferred 2/2', [{ resource1: [P([1])] }, { resource2: [P([0, 1])] }], N([1])],
  ['bestNonPreferredAffinityCount (1)', [{ resource1: [N([0, 1, 2, 3]), N([0, 1])] }, { resource2: [N([0, 1])] }], N([0, 1])],
  ['bestNonPreferredAffinityCount (2)', [{ resource1: [N([0, 1, 2, 3]), N([0, 1])] }, { resource2: [N([0, 3])] }], N([0, 3])],
  ['bestNonPreferredAffinityCount (3)', [{ resource1: [N([0, 1, 2, 3]), N([0, 1])] }, { resource2: [N([1, 2])] }], N([1, 2])],
  ['bestNonPreferredAffinityCount (4)', [{ resource1: [N([0, 1, 2, 3]), N([0, 1])] }, { resource2: [N([2, 3])] }], N([2, 3])],
];

/** bestEffortPolicy.mergeTestCasesNoPolicies (four nodes, narrowest). */
const noPolicies: Case[] = [
  ['bestNonPreferredAffinityCount (5)', [{ resource1: [N([0, 1, 2, 3]), N([0, 1])] }, { resource2: [N([1, 2]), N([2, 3])] }], N([1, 2])],
  ['bestNonPreferredAffinityCount (6)', [{ resource1: [N([0, 1, 2, 3]), N([0, 1])] }, { resource2: [N([1, 2, 3]), N([1, 2]), N([1, 3]), N([2, 3])] }], N([1, 2])],
];

/** bestEffortPolicy.mergeTestCasesClosestNUMA (eight nodes, prefer-closest-numa-nodes). */
const closest: Case[] = [
  ['Two providers, 2 hints each, same mask (some with different bits), same preferred', [{ resource1: [P([0, 4]), P([0, 2])] }, { resource2: [P([0, 4]), P([0, 2])] }], P([0, 2])],
  ['Two providers, 2 hints each, different mask', [{ resource1: [P([4]), P([0, 2])] }, { resource2: [P([4]), P([0, 2])] }], P([4])],
  ['bestNonPreferredAffinityCount (5)', [{ resource1: [N([0, 1, 2, 3]), N([0, 1])] }, { resource2: [N([1, 2]), N([2, 3])] }], N([2, 3])],
  ['bestNonPreferredAffinityCount (6)', [{ resource1: [N([0, 1, 2, 3]), N([0, 1])] }, { resource2: [N([1, 2, 3]), N([1, 2]), N([1, 3]), N([2, 3])] }], N([2, 3])],
];

/** singleNumaNodePolicy.mergeTestCases: the any-NUMA result is reported as nil. */
const singleNuma: Case[] = [
  ['TopologyHint not set', [], P(null)],
  ['HintProvider returns empty non-nil map[string][]TopologyHint', [{}], P(null)],
  ['HintProvider returns -nil map[string][]TopologyHint from provider', [{ resource: null }], P(null)],
  ['HintProvider returns empty non-nil map[string][]TopologyHint from provider', [{ resource: [] }], N(null)],
  ['Single TopologyHint with Preferred as true and NUMANodeAffinity as nil', [{ resource: [P(null)] }], P(null)],
  ['Single TopologyHint with Preferred as false and NUMANodeAffinity as nil', [{ resource: [N(null)] }], N(null)],
  ['Two providers, 1 hint each, no common mask', [{ resource1: [P([0])] }, { resource2: [P([1])] }], N(null)],
  ['Two providers, 1 hint each, same mask, 1 preferred, 1 not 1/2', [{ resource1: [P([0])] }, { resource2: [N([0])] }], N(null)],
  ['Two providers, 1 hint each, same mask, 1 preferred, 1 not 2/2', [{ resource1: [P([1])] }, { resource2: [N([1])] }], N(null)],
  ['Two providers, 1 with 2 hints, 1 with single non-preferred hint matching', [{ resource1: [P([0]), P([1])] }, { resource2: [N([0, 1])] }], N(null)],
  ['Single NUMA hint generation', [{ resource1: [P([0, 1])], resource2: [P([0]), P([1]), N([0, 1])] }], N(null)],
  ['One no-preference provider', [{ resource1: [P([0]), P([1]), N([0, 1])] }, null], P([0])],
];

function run(policy: Policy, cases: Case[]): void {
  for (const [name, providers, expected] of cases) {
    const { hint } = policy.merge(providers);
    assert.equal(formatHint(hint), formatHint(expected), `${policy.name}: ${name}`);
    assert.equal(hint.numaNodeAffinity === null, expected.numaNodeAffinity === null, `${policy.name}: ${name} (nil mask)`);
  }
}

const none = parsePolicyOptions();

test('best-effort merges as TestPolicyBestEffortMerge (four NUMA nodes) and admits every hint', () => {
  const p = new BestEffortPolicy(new NUMAInfo(FOUR), none);
  run(p, [...common, ...bestEffort, ...noPolicies]);
  assert.equal(p.merge([{ r: [] }]).admit, true);
});

test('best-effort with prefer-closest-numa-nodes picks the closest masks (TestPolicyBestEffortMergeClosestNUMA, eight nodes)', () => {
  const opts = parsePolicyOptions({ 'prefer-closest-numa-nodes': 'true' });
  run(new BestEffortPolicy(NUMAInfo.of(EIGHT, opts), opts), [...common, ...closest]);
});

test('restricted merges as best-effort and admits only a preferred hint (TestPolicyRestrictedMerge, TestPolicyRestrictedCanAdmitPodResult)', () => {
  const p = new RestrictedPolicy(new NUMAInfo(FOUR), none);
  run(p, [...common, ...bestEffort, ...noPolicies]);
  assert.equal(p.merge([{ r: [P([0])] }]).admit, true);
  assert.equal(p.merge([{ r: [N([0, 1])] }]).admit, false);
  assert.equal(p.merge([{ r: [] }]).admit, false);
});

test('single-numa-node keeps single-node preferred hints only (TestPolicySingleNumaNodeMerge, TestPolicySingleNumaNodeFilterHints)', () => {
  const p = new SingleNumaNodePolicy(new NUMAInfo(FOUR), none);
  run(p, [...common, ...singleNuma]);
  assert.equal(p.merge([{ r: [P([0, 1])] }]).admit, false);
  // TestPolicySingleNumaNodeFilterHints: "filter hints with nil socket mask 1/2" and "2/2".
  assert.deepEqual(filterSingleNumaHints([[N(null)], [P(null)]]).map((r) => r.map(formatHint)), [[], ['{<nil> true}']]);
  const filtered = filterSingleNumaHints([
    [P([0]), N(null)],
    [P([1]), P(null)],
  ]);
  assert.deepEqual(filtered.map((r) => r.map(formatHint)), [['{01 true}'], ['{10 true}', '{<nil> true}']]);
  assert.deepEqual(filterSingleNumaHints([[P([0, 1]), N([0])]]), [[]]);
});

test('maxOfMinAffinityCounts (TestMaxOfMinAffinityCounts)', () => {
  const cases: Array<[TopologyHint[][], number]> = [
    [[], 0],
    [[[P([])]], 0],
    [[[P([0])]], 1],
    [[[P([0, 1])]], 2],
    [[[P([0, 1]), P([0, 1, 2])]], 2],
    [[[P([0, 1]), P([0, 1, 2])], [P([0, 1, 2])]], 3],
    [[[P([0, 1]), P([0, 1, 2])], [P([0, 1, 2]), P([0, 1, 2, 3])]], 3],
  ];
  for (const [hints, expected] of cases) assert.equal(maxOfMinAffinityCounts(hints), expected);
});

test('HintMerger.compare picks current or candidate as TestCompareHintsNarrowest', () => {
  const cases: Array<[string, number, TopologyHint | undefined, TopologyHint, 'current' | 'candidate']> = [
    ['candidate.NUMANodeAffinity.Count() == 0 (1)', -1, undefined, N([]), 'current'],
    ['candidate.NUMANodeAffinity.Count() == 0 (2)', -1, P([]), N([]), 'current'],
    ['current == nil (1)', -1, undefined, P([0]), 'candidate'],
    ['current == nil (2)', -1, undefined, N([0]), 'candidate'],
    ['!current.Preferred && candidate.Preferred', -1, N([0]), P([0]), 'candidate'],
    ['current.Preferred && !candidate.Preferred', -1, P([0]), N([0]), 'current'],
    ['current.Preferred && candidate.Preferred (1)', -1, P([0]), P([0]), 'current'],
    ['current.Preferred && candidate.Preferred (2)', -1, P([0, 1]), P([0]), 'candidate'],
    ['current.Preferred && candidate.Preferred (3)', -1, P([0]), P([0, 1]), 'current'],
    ['!current.Preferred && !candidate.Preferred (1.1)', 1, N([0, 1]), N([0, 1]), 'current'],
    ['!current.Preferred && !candidate.Preferred (1.2)', 1, N([1, 2]), N([0, 1]), 'candidate'],
    ['!current.Preferred && !candidate.Preferred (1.3)', 1, N([0, 1]), N([1, 2]), 'current'],
    ['!current.Preferred && !candidate.Preferred (2.1)', 2, N([0, 1]), N([0]), 'current'],
    ['!current.Preferred && !candidate.Preferred (2.2)', 2, N([0, 1]), N([0, 1]), 'current'],
    ['!current.Preferred && !candidate.Preferred (2.3)', 2, N([1, 2]), N([0, 1]), 'candidate'],
    ['!current.Preferred && !candidate.Preferred (2.4)', 2, N([0, 1]), N([1, 2]), 'current'],
    ['!current.Preferred && !candidate.Preferred (3a)', 2, N([0]), N([0, 1, 2]), 'current'],
    ['!current.Preferred && !candidate.Preferred (3b)', 2, N([0]), N([0, 1]), 'candidate'],
    ['!current.Preferred && !candidate.Preferred (3ca.1)', 3, N([0]), N([0, 1]), 'candidate'],
    ['!current.Preferred && !candidate.Preferred (3ca.2)', 3, N([0]), N([1, 2]), 'candidate'],
    ['!current.Preferred && !candidate.Preferred (3ca.3)', 4, N([0, 1]), N([1, 2, 3]), 'candidate'],
    ['!current.Preferred && !candidate.Preferred (3cb)', 4, N([1, 2, 3]), N([0, 1]), 'current'],
    ['!current.Preferred && !candidate.Preferred (3cc.1)', 4, N([0, 1, 2]), N([0, 1, 2]), 'current'],
    ['!current.Preferred && !candidate.Preferred (3cc.2)', 4, N([0, 1, 2]), N([1, 2, 3]), 'current'],
    ['!current.Preferred && !candidate.Preferred (3cc.3)', 4, N([1, 2, 3]), N([0, 1, 2]), 'candidate'],
  ];
  for (const [name, best, current, candidate, expected] of cases) {
    const merger = new HintMerger(new NUMAInfo([]), [], POLICY_BEST_EFFORT, none);
    merger.bestNonPreferredAffinityCount = best;
    const got = merger.compare(current, candidate);
    assert.equal(got, expected === 'current' ? current : candidate, name);
  }
});

test('policy options: unknown names and bad values fail as NewPolicyOptions; closest needs distances', () => {
  assert.throws(() => parsePolicyOptions({ 'no-such-option': 'true' }), { message: 'unknown Topology Manager Policy option: "no-such-option"' });
  assert.throws(() => parsePolicyOptions({ 'prefer-closest-numa-nodes': 'yes' }), /bad value for option "prefer-closest-numa-nodes"/);
  assert.throws(() => NUMAInfo.of([{ id: 0 }], { preferClosestNUMA: true }), { message: 'error getting NUMA distances from cadvisor' });
});
