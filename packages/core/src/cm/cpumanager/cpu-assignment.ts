/**
 * takeByTopologyNUMAPacked (kubelet pkg/kubelet/cm/cpumanager/cpu_assignment.go v1.28): picks `numCPUs` of the
 * available CPUs topology-aware best-fit — whole NUMA nodes / sockets first (whichever is higher in the memory
 * hierarchy), then whole physical cores, then single threads filling partly used cores — each level taken from
 * the candidates with the fewest free CPUs first (ties by id), so allocations pack instead of fragmenting.
 */
import { CPUSet } from '../topology/cpuset.ts';
import { cpusPerCore, cpusPerSocket, type CPUDetails, type CPUTopology } from '../topology/cpu-topology.ts';

export class CPUAccumulator {
  /** The free CPUs not yet taken (`details` in Go). */
  details: CPUDetails;
  result = CPUSet.of();
  numCPUsNeeded: number;
  /** NUMA nodes above sockets in the hierarchy (each holds one or more sockets) → NUMA nodes first. */
  private readonly numaFirst: boolean;

  constructor(
    readonly topo: CPUTopology,
    availableCPUs: CPUSet,
    numCPUs: number,
  ) {
    this.details = topo.cpuDetails.keepOnly(availableCPUs);
    this.numCPUsNeeded = numCPUs;
    this.numaFirst = topo.numSockets >= topo.numNUMANodes;
  }

  take(cpus: CPUSet): void {
    this.result = this.result.union(cpus);
    this.details = this.details.keepOnly(this.details.cpus().difference(this.result));
    this.numCPUsNeeded -= cpus.size();
  }

  needsAtLeast(n: number): boolean {
    return this.numCPUsNeeded >= n;
  }

  isSatisfied(): boolean {
    return this.numCPUsNeeded < 1;
  }

  isFailed(): boolean {
    return this.numCPUsNeeded > this.details.cpus().size();
  }

  /** Ascending by free CPUs inside, ties by id (cpuAccumulator.sort). */
  private sort(ids: number[], cpusOf: (id: number) => CPUSet): number[] {
    const size = new Map(ids.map((id) => [id, cpusOf(id).size()]));
    return ids.sort((a, b) => size.get(a)! - size.get(b)! || a - b);
  }

  sortAvailableNUMANodes(): number[] {
    const d = this.details;
    if (this.numaFirst) return this.sort(d.numaNodes().list(), (n) => d.cpusInNUMANodes(n));
    return this.sortAvailableSockets().flatMap((s) => this.sort(d.numaNodesInSockets(s).list(), (n) => d.cpusInNUMANodes(n)));
  }

  sortAvailableSockets(): number[] {
    const d = this.details;
    if (!this.numaFirst) return this.sort(d.sockets().list(), (s) => d.cpusInSockets(s));
    return this.sortAvailableNUMANodes().flatMap((n) => this.sort(d.socketsInNUMANodes(n).list(), (s) => d.cpusInSockets(s)));
  }

  sortAvailableCores(): number[] {
    const d = this.details;
    if (this.numaFirst) return this.sortAvailableSockets().flatMap((s) => this.sort(d.coresInSockets(s).list(), (c) => d.cpusInCores(c)));
    return this.sortAvailableNUMANodes().flatMap((n) => this.sort(d.coresInNUMANodes(n).list(), (c) => d.cpusInCores(c)));
  }

  /** Free CPUs one core at a time in sortAvailableCores order, each core's CPUs ascending (freeCPUs). */
  sortAvailableCPUs(): number[] {
    return this.sortAvailableCores().flatMap((c) => this.details.cpusInCores(c).list());
  }

  freeNUMANodes(): number[] {
    return this.sortAvailableNUMANodes().filter((n) => this.details.cpusInNUMANodes(n).size() === this.topo.cpuDetails.cpusInNUMANodes(n).size());
  }

  freeSockets(): number[] {
    return this.sortAvailableSockets().filter((s) => this.details.cpusInSockets(s).size() === cpusPerSocket(this.topo));
  }

  freeCores(): number[] {
    return this.sortAvailableCores().filter((c) => this.details.cpusInCores(c).size() === cpusPerCore(this.topo));
  }

  takeFullNUMANodes(): void {
    for (const n of this.freeNUMANodes()) {
      const cpus = this.topo.cpuDetails.cpusInNUMANodes(n);
      if (this.needsAtLeast(cpus.size())) this.take(cpus);
    }
  }

  takeFullSockets(): void {
    for (const s of this.freeSockets()) {
      const cpus = this.topo.cpuDetails.cpusInSockets(s);
      if (this.needsAtLeast(cpus.size())) this.take(cpus);
    }
  }

  takeFullCores(): void {
    for (const c of this.freeCores()) {
      const cpus = this.topo.cpuDetails.cpusInCores(c);
      if (this.needsAtLeast(cpus.size())) this.take(cpus);
    }
  }

  takeRemainingCPUs(): void {
    for (const cpu of this.sortAvailableCPUs()) {
      this.take(CPUSet.of(cpu));
      if (this.isSatisfied()) return;
    }
  }

  takeFullFirstLevel(): void {
    if (this.numaFirst) this.takeFullNUMANodes();
    else this.takeFullSockets();
  }

  takeFullSecondLevel(): void {
    if (this.numaFirst) this.takeFullSockets();
    else this.takeFullNUMANodes();
  }
}

/** takeByTopologyNUMAPacked; throws with the kubelet's error text when the CPUs are not there. */
export function takeByTopologyNUMAPacked(topo: CPUTopology, availableCPUs: CPUSet, numCPUs: number): CPUSet {
  const acc = new CPUAccumulator(topo, availableCPUs, numCPUs);
  if (acc.isSatisfied()) return acc.result;
  if (acc.isFailed()) throw new Error('not enough cpus available to satisfy request');
  for (const step of [() => acc.takeFullFirstLevel(), () => acc.takeFullSecondLevel(), () => acc.takeFullCores(), () => acc.takeRemainingCPUs()]) {
    step();
    if (acc.isSatisfied()) return acc.result;
  }
  throw new Error('failed to allocate cpus');
}
