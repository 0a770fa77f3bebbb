// Expected values: the kubelet's policy_static_test.go (TestStaticPolicyAdd, ...WithResvList, ...Remove,
// TestTopologyAwareAllocateCPUs, TestStaticPolicyStartWithResvList) and topology_hints_test.go
// (TestPodGuaranteedCPUs, TestGetTopologyHints) at v1.28, over policy_test.go's topologies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CPUSet } from '../topology/cpuset.ts';
import { discoverTopology, type CPUTopology } from '../topology/cpu-topology.ts';
import type { MachineInfo } from '../topology/machine-info.ts';
import { topoDualSocketHT, topoDualSocketMultiNumaPerSocketHT, topoDualSocketNoHT, topoSingleSocketHT } from '../topology/testing/topologies.ts';
import { AdmissionError, BitMask, type Store, type TopologyHint } from '../topologymanager/types.ts';
import { StaticPolicy } from './policy-static.ts';
import { CpuState } from './state.ts';
import { makeMultiContainerPod, makePod, type ContainerSpec } from './testing/pods.ts';

const set = (s: string) => CPUSet.parse(s);

function stateOf(defaultSet: string, assignments: Record<string, Record<string, string>> = {}): CpuState {
  const s = new CpuState();
  s.load(set(defaultSet), new Map(Object.entries(assignments).map(([p, m]) => [p, new Map(Object.entries(m).map(([c, v]) => [c, set(v)]))])));
  return s;
}

test('TestStaticPolicyAdd: exclusive CPUs for integer requests of Guaranteed pods, none otherwise', () => {
  const cases: Array<[string, CPUTopology, string, Record<string, string>, string, string | Error | undefined]> = [
    // description, topology, default set, assignments of fakeContainer100, request (= limit), expected set / error / no allocation
    ['GuPodSingleCore, SingleSocketHT, ExpectError', topoSingleSocketHT, '0-7', {}, '8000m', new Error('not enough cpus available to satisfy request')],
    ['GuPodSingleCore, SingleSocketHT, ExpectAllocOneCPU', topoSingleSocketHT, '0-7', {}, '1000m', '4'],
    ['GuPodMultipleCores, SingleSocketHT, ExpectAllocOneCore', topoSingleSocketHT, '0-1,4-5', { fakeContainer100: '2-3,6-7' }, '2000m', '1,5'],
    ['GuPodMultipleCores, DualSocketHT, ExpectAllocOneSocket', topoDualSocketHT, '0-1,3-11', { fakeContainer100: '2' }, '6000m', '1,3,5,7,9,11'],
    ['GuPodMultipleCores, DualSocketHT, ExpectAllocThreeCores', topoDualSocketHT, '0,2-4,6-11', { fakeContainer100: '1,5' }, '6000m', '2-4,8-10'],
    ['GuPodMultipleCores, DualSocketNoHT, ExpectAllocOneSocket', topoDualSocketNoHT, '0-1,3-7', { fakeContainer100: '' }, '4000m', '4-7'],
    ['GuPodMultipleCores, DualSocketNoHT, ExpectAllocFourCores', topoDualSocketNoHT, '0-1,3,6-7', { fakeContainer100: '4-5' }, '4000m', '1,3,6-7'],
    ['GuPodMultipleCores, DualSocketHT, ExpectAllocOneSocketOneCore', topoDualSocketHT, '0-1,3-11', { fakeContainer100: '2' }, '8000m', '1,3-5,7,9-11'],
    ['GuPodNonIntegerCore, SingleSocketHT, NoAlloc', topoSingleSocketHT, '0-7', {}, '977m', undefined],
    ['GuPodMultipleCores, SingleSocketHT, NoAllocExpectError', topoSingleSocketHT, '0,7', { fakeContainer100: '1-6' }, '2000m', new Error('not enough cpus available to satisfy request')],
    ['GuPodMultipleCores, DualSocketHT, NoAllocExpectError', topoDualSocketHT, '0,4-11', { fakeContainer100: '1-3' }, '10000m', new Error('not enough cpus available to satisfy request')],
  ];
  for (const [name, topo, def, assigned, cpu, expect] of cases) {
    const policy = new StaticPolicy(topo, 1, CPUSet.of(), undefined);
    const s = stateOf(def, { fakePod: assigned });
    const pod = makePod('fakePod', 'fakeContainer', cpu, cpu);
    if (expect instanceof Error) {
      assert.throws(() => policy.allocate(s, pod, pod.spec!.containers[0]!), { message: expect.message }, name);
      assert.equal(s.getCPUSet('fakePod', 'fakeContainer'), undefined, name);
      continue;
    }
    policy.allocate(s, pod, pod.spec!.containers[0]!);
    const got = s.getCPUSet('fakePod', 'fakeContainer');
    if (expect === undefined) {
      assert.equal(got, undefined, name);
      continue;
    }
    assert.equal(got?.toString(), set(expect).toString(), name);
    assert.ok(got!.intersection(s.getDefaultCPUSet()).isEmpty(), `${name}: disjoint from the shared pool`);
  }
  const burstable = makePod('fakePod', 'fakeContainer1', '1000m', '2000m');
  const s = stateOf('0-7');
  new StaticPolicy(topoSingleSocketHT, 1, CPUSet.of(), undefined).allocate(s, burstable, burstable.spec!.containers[0]!);
  assert.equal(s.getCPUSet('fakePod', 'fakeContainer1'), undefined, 'NonGuPod, SingleSocketHT, NoAlloc');
});

test('TestStaticPolicyAddWithResvList and the reserved CPUs chosen by topology', () => {
  const pod = makePod('fakePod', 'fakeContainer2', '1000m', '1000m');
  const s = stateOf('0-7');
  new StaticPolicy(topoSingleSocketHT, 2, CPUSet.of(0, 1), undefined).allocate(s, pod, pod.spec!.containers[0]!);
  assert.equal(s.getCPUSet('fakePod', 'fakeContainer2')?.toString(), '4');
  const pod2 = makePod('fakePod', 'fakeContainer3', '2000m', '2000m');
  const s2 = stateOf('0-1,4-5', { fakePod: { fakeContainer100: '2-3,6-7' } });
  new StaticPolicy(topoSingleSocketHT, 2, CPUSet.of(0, 1), undefined).allocate(s2, pod2, pod2.spec!.containers[0]!);
  assert.equal(s2.getCPUSet('fakePod', 'fakeContainer3')?.toString(), '4-5');
  // NewStaticPolicy's comment: 8 CPUs with HT and numReservedCPUs=2 → reserved={0,4}.
  assert.equal(new StaticPolicy(topoSingleSocketHT, 2, CPUSet.of(), undefined).reserved.toString(), '0,4');
});

test('TestStaticPolicyStartWithResvList: start fills an empty state, refuses inconsistent ones', () => {
  const s = stateOf('');
  new StaticPolicy(topoDualSocketHT, 2, CPUSet.of(0, 1), undefined).start(s);
  assert.equal(s.getDefaultCPUSet().toString(), '0-11');
  assert.throws(() => new StaticPolicy(topoDualSocketHT, 2, CPUSet.of(0, 1), undefined).start(stateOf('2-5')), { message: 'not all reserved cpus: "0-1" are present in defaultCpuSet: "2-5"' });
  assert.throws(() => new StaticPolicy(topoDualSocketHT, 1, CPUSet.of(0, 1), undefined), { message: '[cpumanager] unable to reserve the required amount of CPUs (size of 0-1 did not equal 1)' });
  const p = new StaticPolicy(topoSingleSocketHT, 1, CPUSet.of(), undefined);
  assert.throws(() => p.start(stateOf('0-3', { pod: { c: '3-4' } })), { message: 'pod: pod, container: c cpuset: "3-4" overlaps with default cpuset "0-3"' });
  assert.throws(() => p.start(stateOf('0-3', { pod: { c: '4-5' } })), { message: 'current set of available CPUs "0-7" doesn\'t match with CPUs in state "0-5"' });
  assert.throws(() => p.start(stateOf('', { pod: { c: '4-5' } })), { message: 'default cpuset cannot be empty' });
});

test('TestStaticPolicyRemove: released CPUs go back to the shared pool unless a sibling holds them', () => {
  const cases: Array<[string, Record<string, string>, string, string, string]> = [
    ['SingleSocketHT, DeAllocOneContainer', { fakeContainer1: '1-3' }, '4-7', 'fakeContainer1', '1-7'],
    ['SingleSocketHT, DeAllocOneContainer, BeginEmpty', { fakeContainer1: '1-3', fakeContainer2: '4-7' }, '', 'fakeContainer1', '1-3'],
    ['SingleSocketHT, DeAllocTwoContainer', { fakeContainer1: '1,3,5', fakeContainer2: '2,4' }, '6-7', 'fakeContainer1', '1,3,5-7'],
    ['SingleSocketHT, NoDeAlloc', { fakeContainer1: '1,3,5' }, '2,4,6-7', 'fakeContainer2', '2,4,6-7'],
  ];
  for (const [name, assigned, def, container, expect] of cases) {
    const s = stateOf(def, { fakePod: assigned });
    new StaticPolicy(topoSingleSocketHT, 1, CPUSet.of(), undefined).removeContainer(s, 'fakePod', container);
    assert.equal(s.getDefaultCPUSet().toString(), set(expect).toString(), name);
    assert.equal(s.getCPUSet('fakePod', container), undefined, name);
  }
});

test('TestTopologyAwareAllocateCPUs: the hint\'s NUMA node first', () => {
  const cases: Array<[number, BitMask | null, string]> = [
    [2, null, '0,6'],
    [2, BitMask.of(0), '0,6'],
    [2, BitMask.of(1), '1,7'],
    [8, BitMask.of(0), '0,6,2,8,4,10,1,7'],
    [8, BitMask.of(1), '1,7,3,9,5,11,0,6'],
  ];
  for (const [n, mask, expect] of cases) {
    const store: Store = { getAffinity: () => ({ numaNodeAffinity: mask, preferred: true }), getPolicy: () => { throw new Error('unused'); } };
    const policy = new StaticPolicy(topoDualSocketHT, 0, CPUSet.of(), store);
    const s = stateOf('0-11');
    const pod = makePod('fakePod', 'c', String(n), String(n));
    policy.allocate(s, pod, pod.spec!.containers[0]!);
    assert.equal(s.getCPUSet('fakePod', 'c')?.toString(), set(expect).toString(), `${n} CPUs, mask ${mask?.toString() ?? 'nil'}`);
  }
});

test('full-pcpus-only: SMTAlignmentError for an odd request on a hyperthreaded machine', () => {
  const policy = new StaticPolicy(topoSingleSocketHT, 1, CPUSet.of(), undefined, { 'full-pcpus-only': 'true' });
  const pod = makePod('p', 'c', '3', '3');
  assert.throws(() => policy.allocate(stateOf('0-7'), pod, pod.spec!.containers[0]!), (err: unknown) => err instanceof AdmissionError && err.reason === 'SMTAlignmentError' && err.message === 'SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2');
  assert.throws(() => new StaticPolicy(topoSingleSocketHT, 1, CPUSet.of(), undefined, { 'align-by-socket': 'true' }), { message: 'CPU Manager Policy Alpha-level Options not enabled, but option "align-by-socket" provided' });
});

test('TestPodGuaranteedCPUs: init containers, app containers and sidecars', () => {
  const p = new StaticPolicy(topoDualSocketHT, 0, CPUSet.of(), undefined);
  const c = (n: string, restartPolicy?: 'Always'): ContainerSpec => ({ request: n, limit: n, ...(restartPolicy ? { restartPolicy } : {}) });
  const cases: Array<[string, ContainerSpec[], ContainerSpec[], number]> = [
    ['TestCase01', [c('0')], [c('0')], 0],
    ['TestCase04: Guaranteed Pod requests 2 CPUs', [c('2')], [c('2')], 2],
    ['TestCase06: app bigger than init', [c('2')], [c('5')], 5],
    ['TestCase07: init bigger than app', [c('5')], [c('2')], 5],
    ['TestCase08: sum of multiple containers', [c('2'), c('4')], [c('2'), c('4')], 6],
    ['TestCase09: restartable init container + regular container', [c('1', 'Always')], [c('1')], 2],
    ['TestCase10: multiple restartable init containers', [c('5'), c('1', 'Always'), c('2', 'Always'), c('3', 'Always')], [c('1')], 7],
    ['TestCase11: multiple restartable and regular init containers', [c('5'), c('1', 'Always'), c('2', 'Always'), c('5'), c('3', 'Always')], [c('1')], 8],
    ['TestCase12: restartable init, regular init and regular container', [c('10', 'Always'), c('200')], [c('100')], 210],
  ];
  for (const [name, init, apps, expect] of cases) assert.equal(p.podGuaranteedCPUs(makeMultiContainerPod(init, apps)), expect, name);
});

/** returnMachineInfo() of topology_hints_test.go: NUMA 0 = cores {0,6},{1,7},{2,8}; NUMA 1 = {3,9},{4,10},{5,11}. */
function hintsMachine(): MachineInfo {
  const node = (id: number, cores: number[][]) => ({
    id,
    memoryBytes: 0,
    cpus: CPUSet.from(cores.flat()),
    cores: cores.map((threads, i) => ({ id: i, socketId: id, threads })),
    hugePages: [],
    distances: [],
  });
  const topology = [node(0, [[0, 6], [1, 7], [2, 8]]), node(1, [[3, 9], [4, 10], [5, 11]])];
  return { numCores: 12, numPhysicalCores: 6, numSockets: 2, memoryCapacityBytes: 0, topology };
}

test('TestGetTopologyHints: hints per NUMA combination, the narrowest preferred; regenerated when allocated', () => {
  const topo = discoverTopology(hintsMachine());
  const show = (hs: TopologyHint[] | null | undefined) => (hs ?? []).map((h) => `${h.numaNodeAffinity?.toString()}:${h.preferred}`).sort();
  const cases: Array<[string, string, string, Record<string, string>, string[]]> = [
    ['Request 2 CPUs, 4 available on NUMA 0, 6 available on NUMA 1', '2', '2-11', {}, ['01:true', '10:true', '11:false']],
    ['Request 5 CPUs, 4 available on NUMA 0, 6 available on NUMA 1', '5', '2-11', {}, ['10:true', '11:false']],
    ['Request 7 CPUs, 4 available on NUMA 0, 6 available on NUMA 1', '7', '2-11', {}, ['11:true']],
    ['Request 11 CPUs, 4 available on NUMA 0, 6 available on NUMA 1', '11', '2-11', {}, []],
    ['Request 2 CPUs, 1 available on NUMA 0, 1 available on NUMA 1', '2', '0,3', {}, ['11:false']],
    ['Request more CPUs than available', '5', '0-3', {}, []],
    ['Regenerate Single-Node NUMA Hints if already allocated 1/2', '2', '', { fakeContainer: '0,6' }, ['01:true', '11:false']],
    ['Regenerate Single-Node NUMA Hints if already allocated 2/2', '2', '', { fakeContainer: '3,9' }, ['10:true', '11:false']],
    ['Regenerate Cross-NUMA Hints if already allocated', '11', '', { fakeContainer: '0-10' }, ['11:true']],
    ['Requested less than already allocated', '2', '', { fakeContainer: '0,3,6,9' }, []],
  ];
  for (const [name, cpu, def, assigned, expect] of cases) {
    const pod = makePod('fakePod', 'fakeContainer', cpu, cpu);
    const hints = new StaticPolicy(topo, 0, CPUSet.of(), undefined).getTopologyHints(stateOf(def, { fakePod: assigned }), pod, pod.spec!.containers[0]!);
    assert.deepEqual(show(hints?.['cpu']), [...expect].sort(), name);
  }
  // A request that changed after allocation gives an empty (unsatisfiable) hint list, not "no preference".
  const pod = makePod('fakePod', 'fakeContainer', '2', '2');
  assert.deepEqual(new StaticPolicy(topo, 0, CPUSet.of(), undefined).getTopologyHints(stateOf('', { fakePod: { fakeContainer: '0,3,6,9' } }), pod, pod.spec!.containers[0]!), { cpu: [] });
  const burstable = makePod('fakePod', 'fakeContainer', '1', '2');
  assert.equal(new StaticPolicy(topo, 0, CPUSet.of(), undefined).getTopologyHints(stateOf('0-11'), burstable, burstable.spec!.containers[0]!), null);
});

test('4 NUMA nodes (TestGetPodTopologyHintsWithPolicyOptions, align-by-socket off): 2 CPUs from 2,3 (NUMA 0) and 11 (NUMA 1)', () => {
  const pod = makePod('fakePod', 'fakeContainer', '2', '2');
  const hints = new StaticPolicy(topoDualSocketMultiNumaPerSocketHT, 0, CPUSet.of(), undefined).getPodTopologyHints(stateOf('2-3,11'), pod);
  const got = (hints?.['cpu'] ?? []).map((h) => `${h.numaNodeAffinity?.toString()}:${h.preferred}`).sort();
  const m = (...bits: number[]) => BitMask.of(...bits).toString();
  const expect = [`${m(0)}:true`, ...[[0, 1], [0, 2], [0, 3], [0, 1, 2], [0, 1, 3], [0, 2, 3], [0, 1, 2, 3]].map((b) => `${m(...b)}:false`)];
  assert.deepEqual(got, expect.sort());
});
