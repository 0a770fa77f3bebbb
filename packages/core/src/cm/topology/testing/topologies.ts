/**
 * The CPU topologies of the kubelet's own cpumanager tests (pkg/kubelet/cm/cpumanager/policy_test.go v1.28),
 * so their expected allocations can be checked here unchanged. Upstream leaves NumNUMANodes unset (0) in
 * these fixtures; here it is the real count — every upstream case used gives the same result either way.
 */
import { CPUDetails, type CPUInfo, type CPUTopology } from '../cpu-topology.ts';

const info = (coreId: number, socketId: number, numaNodeId: number): CPUInfo => ({ coreId, socketId, numaNodeId });

/** topoSingleSocketHT: 8 CPUs, 4 cores (CPU n and n+4 are siblings), 1 socket. */
export const topoSingleSocketHT: CPUTopology = {
  numCPUs: 8,
  numSockets: 1,
  numCores: 4,
  numNUMANodes: 1,
  cpuDetails: new CPUDetails(Array.from({ length: 8 }, (_, cpu) => [cpu, info(cpu % 4, 0, 0)] as [number, CPUInfo])),
};

/** topoDualSocketHT: 12 CPUs, 6 cores (n and n+6 siblings); even cores on socket/NUMA 0, odd on 1. */
export const topoDualSocketHT: CPUTopology = {
  numCPUs: 12,
  numSockets: 2,
  numCores: 6,
  numNUMANodes: 2,
  cpuDetails: new CPUDetails(Array.from({ length: 12 }, (_, cpu) => [cpu, info(cpu % 6, cpu % 2, cpu % 2)] as [number, CPUInfo])),
};

/** topoDualSocketNoHT: 8 CPUs, one per core; 0-3 on socket/NUMA 0, 4-7 on 1. */
export const topoDualSocketNoHT: CPUTopology = {
  numCPUs: 8,
  numSockets: 2,
  numCores: 8,
  numNUMANodes: 2,
  cpuDetails: new CPUDetails(Array.from({ length: 8 }, (_, cpu) => [cpu, info(cpu, cpu < 4 ? 0 : 1, cpu < 4 ? 0 : 1)] as [number, CPUInfo])),
};

/**
 * topoDualSocketMultiNumaPerSocketHT (dual Xeon Gold 6230): 80 CPUs, 40 cores (n and n+40 siblings), 2 sockets,
 * 4 NUMA nodes: node0 0-9,40-49; node1 10-19,50-59; node2 20-29,60-69; node3 30-39,70-79.
 */
export const topoDualSocketMultiNumaPerSocketHT: CPUTopology = {
  numCPUs: 80,
  numSockets: 2,
  numCores: 40,
  numNUMANodes: 4,
  cpuDetails: new CPUDetails(
    Array.from({ length: 80 }, (_, cpu) => {
      const core = cpu % 40;
      return [cpu, info(core, core < 20 ? 0 : 1, Math.floor(core / 10))] as [number, CPUInfo];
    }),
  ),
};
