// Expected values: the kubelet's cpu_assignment_test.go (v1.28) — TestCPUAccumulatorFreeCPUs,
// commonTakeByTopologyTestCases and TestTakeByTopologyNUMAPacked — over policy_test.go's topologies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CPUSet } from '../topology/cpuset.ts';
import type { CPUTopology } from '../topology/cpu-topology.ts';
import { topoDualSocketHT, topoDualSocketMultiNumaPerSocketHT, topoSingleSocketHT } from '../topology/testing/topologies.ts';
import { CPUAccumulator, takeByTopologyNUMAPacked } from './cpu-assignment.ts';

const set = (s: string) => CPUSet.parse(s);

test('TestCPUAccumulatorFreeCPUs: free CPUs in take order', () => {
  const cases: Array<[string, CPUTopology, CPUSet, number[]]> = [
    ['single socket HT, 8 cpus free', topoSingleSocketHT, CPUSet.of(0, 1, 2, 3, 4, 5, 6, 7), [0, 4, 1, 5, 2, 6, 3, 7]],
    ['single socket HT, 5 cpus free', topoSingleSocketHT, CPUSet.of(3, 4, 5, 6, 7), [4, 5, 6, 3, 7]],
    ['dual socket HT, 12 cpus free', topoDualSocketHT, set('0-11'), [0, 6, 2, 8, 4, 10, 1, 7, 3, 9, 5, 11]],
    ['dual socket HT, 11 cpus free', topoDualSocketHT, set('1-11'), [6, 2, 8, 4, 10, 1, 7, 3, 9, 5, 11]],
    ['dual socket HT, 10 cpus free', topoDualSocketHT, CPUSet.of(1, 2, 3, 4, 5, 7, 8, 9, 10, 11), [2, 8, 4, 10, 1, 7, 3, 9, 5, 11]],
  ];
  for (const [name, topo, available, expect] of cases) assert.deepEqual(new CPUAccumulator(topo, available, 0).sortAvailableCPUs(), expect, name);
});

test('TestTakeByTopologyNUMAPacked: sockets / NUMA nodes, then cores, then threads', () => {
  const cases: Array<[string, CPUTopology, CPUSet, number, string]> = [
    ['take zero cpus from single socket with HT', topoSingleSocketHT, set('0-7'), 0, ''],
    ['take one cpu from single socket with HT', topoSingleSocketHT, set('0-7'), 1, '0'],
    ['take one cpu from single socket with HT, some cpus are taken', topoSingleSocketHT, CPUSet.of(1, 3, 5, 6, 7), 1, '6'],
    ['take two cpus from single socket with HT', topoSingleSocketHT, set('0-7'), 2, '0,4'],
    ['take all cpus from single socket with HT', topoSingleSocketHT, set('0-7'), 8, '0-7'],
    ['take two cpus from single socket with HT, only one core totally free', topoSingleSocketHT, CPUSet.of(0, 1, 2, 3, 6), 2, '2,6'],
    ['take a socket of cpus from dual socket with HT', topoDualSocketHT, set('0-11'), 6, '0,2,4,6,8,10'],
    ['take a socket of cpus from dual socket with multi-numa-per-socket with HT', topoDualSocketMultiNumaPerSocketHT, set('0-79'), 40, '0-19,40-59'],
    ['take a NUMA node of cpus from dual socket with multi-numa-per-socket with HT', topoDualSocketMultiNumaPerSocketHT, set('0-79'), 20, '0-9,40-49'],
    ['take a NUMA node of cpus ... with 1 NUMA node already taken', topoDualSocketMultiNumaPerSocketHT, set('10-39,50-79'), 20, '10-19,50-59'],
    ['take a socket and a NUMA node of cpus from dual socket with multi-numa-per-socket with HT', topoDualSocketMultiNumaPerSocketHT, set('0-79'), 60, '0-29,40-69'],
    ['take a socket and a NUMA node ... a core taken', topoDualSocketMultiNumaPerSocketHT, set('1-39,41-79'), 60, '10-39,50-79'],
    ['take one cpu from dual socket with HT - core from Socket 0', topoDualSocketHT, CPUSet.of(1, 2, 3, 4, 5, 7, 8, 9, 10, 11), 1, '2'],
    ['allocate 4 full cores with 3 coming from the first NUMA node (filling it up) and 1 coming from the second NUMA node', topoDualSocketHT, set('0-11'), 8, '0,6,2,8,4,10,1,7'],
    ['allocate 32 full cores with 30 coming from the first 3 NUMA nodes (filling them up) and 2 coming from the fourth NUMA node', topoDualSocketMultiNumaPerSocketHT, set('0-79'), 64, '0-29,40-69,30,31,70,71'],
  ];
  for (const [name, topo, available, n, expect] of cases) assert.ok(takeByTopologyNUMAPacked(topo, available, n).equals(set(expect)), name);
});

test('take more cpus than are available: the kubelet v1.28 error', () => {
  assert.throws(() => takeByTopologyNUMAPacked(topoSingleSocketHT, CPUSet.of(0, 2, 4, 6), 5), { message: 'not enough cpus available to satisfy request' });
});
