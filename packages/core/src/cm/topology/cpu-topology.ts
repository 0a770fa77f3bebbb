/**
 * The CPU topology as the kubelet's CPU manager sees it (pkg/kubelet/cm/cpumanager/topology v1.28): logical
 * CPUs (cAdvisor threads) grouped into cores, sockets and NUMA nodes. `discoverTopology` is topology.Discover
 * over the machine info read from sysfs (machine-info.ts).
 */
import { CPUSet } from './cpuset.ts';
import type { MachineInfo } from './machine-info.ts';

/** CPUInfo: the NUMA node, socket and core of one logical CPU. */
export interface CPUInfo {
  numaNodeId: number;
  socketId: number;
  coreId: number;
}

/** CPUDetails: logical CPU id → CPUInfo, with the kubelet's queries over it. */
export class CPUDetails {
  private readonly m: ReadonlyMap<number, CPUInfo>;

  constructor(entries: Iterable<[number, CPUInfo]>) {
    this.m = new Map(entries);
  }

  get(cpu: number): CPUInfo | undefined {
    return this.m.get(cpu);
  }

  entries(): IterableIterator<[number, CPUInfo]> {
    return this.m.entries();
  }

  /** KeepOnly: the details of the given CPUs only. */
  keepOnly(cpus: CPUSet): CPUDetails {
    return new CPUDetails([...this.m].filter(([cpu]) => cpus.contains(cpu)));
  }

  cpus(): CPUSet {
    return CPUSet.from(this.m.keys());
  }

  numaNodes(): CPUSet {
    return this.collect(() => true, (_, i) => i.numaNodeId);
  }

  sockets(): CPUSet {
    return this.collect(() => true, (_, i) => i.socketId);
  }

  cores(): CPUSet {
    return this.collect(() => true, (_, i) => i.coreId);
  }

  numaNodesInSockets(...ids: number[]): CPUSet {
    return this.collect((i) => ids.includes(i.socketId), (_, i) => i.numaNodeId);
  }

  socketsInNUMANodes(...ids: number[]): CPUSet {
    return this.collect((i) => ids.includes(i.numaNodeId), (_, i) => i.socketId);
  }

  coresInNUMANodes(...ids: number[]): CPUSet {
    return this.collect((i) => ids.includes(i.numaNodeId), (_, i) => i.coreId);
  }

  coresInSockets(...ids: number[]): CPUSet {
    return this.collect((i) => ids.includes(i.socketId), (_, i) => i.coreId);
  }

  cpusInNUMANodes(...ids: number[]): CPUSet {
    return this.collect((i) => ids.includes(i.numaNodeId), (cpu) => cpu);
  }

  cpusInSockets(...ids: number[]): CPUSet {
    return this.collect((i) => ids.includes(i.socketId), (cpu) => cpu);
  }

  cpusInCores(...ids: number[]): CPUSet {
    return this.collect((i) => ids.includes(i.coreId), (cpu) => cpu);
  }

  private collect(keep: (i: CPUInfo) => boolean, pick: (cpu: number, i: CPUInfo) => number): CPUSet {
    const out: number[] = [];
    for (const [cpu, i] of this.m) if (keep(i)) out.push(pick(cpu, i));
    return CPUSet.from(out);
  }
}

/** CPUTopology: NumCPUs (logical), NumCores (physical), NumSockets, NumNUMANodes and the per-CPU details. */
export interface CPUTopology {
  numCPUs: number;
  numCores: number;
  numSockets: number;
  numNUMANodes: number;
  cpuDetails: CPUDetails;
}

/** CPUsPerCore: logical CPUs per physical core (0 without cores). */
export function cpusPerCore(topo: CPUTopology): number {
  return topo.numCores === 0 ? 0 : Math.trunc(topo.numCPUs / topo.numCores);
}

/** CPUsPerSocket: logical CPUs per socket (0 without sockets). */
export function cpusPerSocket(topo: CPUTopology): number {
  return topo.numSockets === 0 ? 0 : Math.trunc(topo.numCPUs / topo.numSockets);
}

/**
 * topology.Discover: a CPU's core id is the lowest thread id of its core (getUniqueCoreID, unique across
 * sockets, unlike sysfs core_id); NumCPUs and NumSockets come from the machine info, NumCores counts the cores
 * of every node, NumNUMANodes the nodes that hold CPUs. Errors as the kubelet's.
 */
export function discoverTopology(machine: MachineInfo): CPUTopology {
  if (machine.numCores === 0) throw new Error('could not detect number of cpus');
  const details: Array<[number, CPUInfo]> = [];
  let numPhysicalCores = 0;
  for (const node of machine.topology) {
    numPhysicalCores += node.cores.length;
    for (const core of node.cores) {
      if (core.threads.length === 0) throw new Error('no cpus provided');
      if (new Set(core.threads).size !== core.threads.length) throw new Error('cpus provided are not unique');
      const coreId = Math.min(...core.threads);
      for (const cpu of core.threads) details.push([cpu, { coreId, socketId: core.socketId, numaNodeId: node.id }]);
    }
  }
  const cpuDetails = new CPUDetails(details);
  return { numCPUs: machine.numCores, numSockets: machine.numSockets, numCores: numPhysicalCores, numNUMANodes: cpuDetails.numaNodes().size(), cpuDetails };
}
