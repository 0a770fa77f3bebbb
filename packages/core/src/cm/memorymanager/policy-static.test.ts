/**
 * The Static policy with the kubelet's own cases (memorymanager/policy_static_test.go v1.28:
 * TestStaticPolicyAllocate, TestStaticPolicyAllocateWithInitContainers, TestStaticPolicyStart,
 * TestStaticPolicyRemoveContainer, TestStaticPolicyGetTopologyHints); names and numbers copied from there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { nullLogger } from '../../util/logger.ts';
import { BitMask } from '../topologymanager/bitmask.ts';
import { formatHint, type Store, type TopologyHint } from '../topologymanager/types.ts';
import { StaticPolicy, hugePageResource, type MemoryNumaNode } from './policy-static.ts';
import { InMemoryState, type Block, type MemoryTable, type NUMANodeMap } from './state.ts';

const mb = 1024 * 1024;
const gb = 1024 * mb;
const HP = 'hugepages-1Gi';

/** A MemoryTable from (allocatable, free, reserved, systemReserved, total), the order the Go cases list them. */
const t = (allocatable: number, free: number, reserved: number, systemReserved: number, totalMemSize: number): MemoryTable => ({ totalMemSize, systemReserved, allocatable, reserved, free });
const hpFree = (free = gb) => t(gb, free, gb - free, 0, gb);

function machine(nodes: Array<[id: number, memory: MemoryTable, hugepages: MemoryTable, cells: number[], assignments: number]>): NUMANodeMap {
  return new Map(nodes.map(([id, memory, hp, cells, n]) => [id, { numberOfAssignments: n, memoryMap: { memory, [HP]: hp }, cells }]));
}

function container(name: string, memory: string, hugepages: string, guaranteed = true): V1Container {
  const limits = { cpu: '1000Mi', memory, [HP]: hugepages };
  return { name, image: 'x', resources: { limits, requests: guaranteed ? limits : { cpu: '500m', memory: '512Mi', [HP]: hugepages } } };
}

/** getPod(uid, container, requirementsGuaranteed / requirementsBurstable): 1Gi memory + 1Gi hugepages. */
const pod = (uid: string, c: string, guaranteed = true, init: V1Container[] = []): V1Pod => ({
  metadata: { uid, name: uid, namespace: 'default' },
  spec: { initContainers: init, containers: [container(c, '1Gi', '1Gi', guaranteed)] },
});

const store = (hint: TopologyHint): Store => ({ getAffinity: () => hint, getPolicy: () => ({ name: 'none', merge: () => ({ hint, admit: true }) }) });

function setup(m: NUMANodeMap, assignments: Array<[string, string, Block[]]> = [], hint: TopologyHint = { numaNodeAffinity: null, preferred: false }) {
  const reserved = new Map([...m.keys()].map((id) => [id, new Map([['memory', 512 * mb]])]));
  const p = new StaticPolicy([], reserved, store(hint), nullLogger);
  const s = new InMemoryState();
  s.setMachineState(m);
  for (const [u, c, b] of assignments) s.setMemoryBlocks(u, c, b);
  return { p, s };
}

const blocks = (nodes: number[], memory: number, hugepages: number): Block[] => [
  { numaAffinity: nodes, type: HP, size: hugepages },
  { numaAffinity: nodes, type: 'memory', size: memory },
];

const oneNodeFree = () => machine([[0, t(1536 * mb, 1536 * mb, 0, 512 * mb, 2 * gb), hpFree(), [0], 0]]);

test('should do nothing for non-guaranteed pods', () => {
  const { p, s } = setup(oneNodeFree());
  p.allocate(s, pod('pod1', 'container1', false), pod('pod1', 'container1', false).spec!.containers[0]!);
  assert.equal(s.getMemoryAssignments().size, 0);
  assert.deepEqual(s.getMachineState(), oneNodeFree());
  assert.equal(p.getTopologyHints(s, pod('pod1', 'container1', false), pod('pod1', 'container1', false).spec!.containers[0]!), null);
});

test('should calculate a default topology hint when no NUMA affinity was provided by the topology manager hint', () => {
  const { p, s } = setup(oneNodeFree());
  const pd = pod('pod1', 'container1');
  p.allocate(s, pd, pd.spec!.containers[0]!);
  assert.deepEqual(s.getMemoryBlocks('pod1', 'container1'), blocks([0], gb, gb));
  assert.deepEqual(s.getMachineState(), machine([[0, t(1536 * mb, 512 * mb, 1024 * mb, 512 * mb, 2 * gb), hpFree(0), [0], 2]]));
});

test('should fail when no NUMA affinity was provided under the topology manager hint and calculation of the default hint failed', () => {
  const full = machine([[0, t(1536 * mb, 512 * mb, 1024 * mb, 512 * mb, 2 * gb), hpFree(0), [0], 2]]);
  const { p, s } = setup(full, [['pod1', 'container1', blocks([0], gb, gb)]]);
  const pd = pod('pod2', 'container2');
  assert.throws(() => p.allocate(s, pd, pd.spec!.containers[0]!), { message: '[memorymanager] failed to get the default NUMA affinity, no NUMA nodes with enough memory is available' });
});

const threeNodes = () =>
  machine([
    [0, t(gb, 512 * mb, 512 * mb, 512 * mb, 1536 * mb), hpFree(), [0], 1],
    [1, t(512 * mb, 512 * mb, 0, 512 * mb, 1536 * mb), hpFree(), [1], 0],
    [2, t(512 * mb, 512 * mb, 0, 512 * mb, 1536 * mb), hpFree(), [2], 0],
  ]);

test('should fail when no NUMA affinity was provided under the topology manager preferred hint and default hint has preferred false', () => {
  const { p, s } = setup(threeNodes(), [['pod1', 'container1', [{ numaAffinity: [0], type: 'memory', size: 512 * mb }]]], { numaNodeAffinity: null, preferred: true });
  const pd = pod('pod2', 'container2');
  assert.throws(() => p.allocate(s, pd, pd.spec!.containers[0]!), { message: '[memorymanager] failed to find the default preferred hint' });
});

test('should fail when the topology manager provided the preferred hint and extended hint has preferred false', () => {
  const { p, s } = setup(threeNodes(), [['pod1', 'container1', [{ numaAffinity: [0], type: 'memory', size: 512 * mb }]]], { numaNodeAffinity: BitMask.of(1), preferred: true });
  const pd = pod('pod2', 'container2');
  assert.throws(() => p.allocate(s, pd, pd.spec!.containers[0]!), { message: '[memorymanager] failed to find the extended preferred hint' });
});

test('should fail when NUMA affinity provided under the topology manager hint did not satisfy container requirements and extended hint generation failed', () => {
  const m = machine([
    [0, t(512 * mb, 512 * mb, 0, 512 * mb, gb), hpFree(), [0], 0],
    [1, t(1536 * mb, 512 * mb, gb, 512 * mb, 2 * gb), hpFree(), [1, 2], 1],
    [2, t(1536 * mb, 512 * mb, gb, 512 * mb, 2 * gb), hpFree(), [1, 2], 1],
  ]);
  const { p, s } = setup(m, [], { numaNodeAffinity: BitMask.of(0), preferred: false });
  const pd = pod('pod1', 'container1');
  assert.throws(() => p.allocate(s, pd, pd.spec!.containers[0]!), { message: '[memorymanager] failed to find NUMA nodes to extend the current topology hint' });
});

test('should succeed to allocate memory from multiple NUMA nodes', () => {
  const free = () => t(512 * mb, 512 * mb, 0, 512 * mb, gb);
  const m = machine([0, 1, 2, 3].map((id) => [id, free(), hpFree(), [id], 0]));
  const { p, s } = setup(m, [], { numaNodeAffinity: null, preferred: true });
  const pd = pod('pod1', 'container1');
  assert.deepEqual(p.getTopologyHints(s, pd, pd.spec!.containers[0]!)!['memory']!.filter((h) => h.preferred).map(formatHint).slice(0, 2), ['{11 true}', '{0101 true}']);
  p.allocate(s, pd, pd.spec!.containers[0]!);
  assert.deepEqual(s.getMemoryBlocks('pod1', 'container1'), blocks([0, 1], gb, gb));
  assert.deepEqual(
    s.getMachineState(),
    machine([
      [0, t(512 * mb, 0, 512 * mb, 512 * mb, gb), hpFree(0), [0, 1], 2],
      [1, t(512 * mb, 0, 512 * mb, 512 * mb, gb), hpFree(), [0, 1], 2],
      [2, free(), hpFree(), [2], 0],
      [3, free(), hpFree(), [3], 0],
    ]),
  );
  // TestStaticPolicyRemoveContainer: the blocks go and both nodes are free and ungrouped again.
  p.removeContainer(s, 'pod1', 'container1');
  assert.deepEqual(s.getMachineState(), m);
});

test('should re-use init containers memory, init containers requests 1Gi and 2Gi, apps containers 3Gi and 4Gi', () => {
  const m = machine([[0, t(7680 * mb, 7680 * mb, 0, 512 * mb, 8 * gb), t(8 * gb, 8 * gb, 0, 0, 8 * gb), [0], 0]]);
  const { p, s } = setup(m);
  const pd: V1Pod = {
    metadata: { uid: 'pod1', name: 'pod1', namespace: 'default' },
    spec: {
      initContainers: [container('initContainer1', '1Gi', '1Gi'), container('initContainer2', '2Gi', '2Gi')],
      containers: [container('container1', '3Gi', '3Gi'), container('container2', '4Gi', '4Gi')],
    },
  };
  for (const c of [...pd.spec!.initContainers!, ...pd.spec!.containers]) p.allocate(s, pd, c);
  assert.deepEqual(s.getMemoryBlocks('pod1', 'initContainer1'), blocks([0], 0, 0));
  assert.deepEqual(s.getMemoryBlocks('pod1', 'initContainer2'), blocks([0], 0, 0));
  assert.deepEqual(s.getMemoryBlocks('pod1', 'container1'), blocks([0], 3 * gb, 3 * gb));
  assert.deepEqual(s.getMemoryBlocks('pod1', 'container2'), blocks([0], 4 * gb, 4 * gb));
  assert.deepEqual(s.getMachineState(), machine([[0, t(7680 * mb, 512 * mb, 7 * gb, 512 * mb, 8 * gb), t(8 * gb, gb, 7 * gb, 0, 8 * gb), [0], 8]]));
});

test('Start: the default machine state from the NUMA nodes and hugepages; a state that does not match is refused (TestStaticPolicyStart)', () => {
  const nodes: MemoryNumaNode[] = [{ id: 0, memoryBytes: 2 * gb, hugePages: [{ pageSizeKiB: 1048576, numPages: 1 }] }];
  const reserved = new Map([[0, new Map([['memory', 512 * mb]])]]);
  const p = new StaticPolicy(nodes, reserved, store({ numaNodeAffinity: null, preferred: false }), nullLogger);
  const s = new InMemoryState();
  p.start(s);
  // "should fill the state with default values": memory allocatable = total − reserved − hugepages.
  assert.deepEqual(s.getMachineState(), machine([[0, t(512 * mb, 512 * mb, 0, 512 * mb, 2 * gb), t(gb, gb, 0, 0, gb), [0], 0]]));
  p.start(s);
  const changed = new InMemoryState();
  changed.setMachineState(machine([[0, t(1536 * mb, 1536 * mb, 0, 512 * mb, 2 * gb), t(gb, gb, 0, 0, gb), [0], 0]]));
  assert.throws(() => p.start(changed), { message: '[memorymanager] the expected machine state is different from the real one' });
  const orphan = new InMemoryState();
  orphan.setMemoryBlocks('pod', 'c', blocks([0], gb, gb));
  assert.throws(() => p.start(orphan), { message: '[memorymanager] machine state can not be empty when it has memory assignments' });
  assert.throws(() => new StaticPolicy(nodes, new Map([[0, new Map()]]), store({ numaNodeAffinity: null, preferred: false }), nullLogger), {
    message: '[memorymanager] you should specify the system reserved memory',
  });
  assert.equal(hugePageResource(2048), 'hugepages-2Mi');
});
