/**
 * The memory manager's state (kubelet pkg/kubelet/cm/memorymanager/state v1.28: state.go, state_mem.go): per
 * NUMA node a memory table per memory type (memory, hugepages-<size>), and the memory blocks assigned to each
 * container. Sizes are bytes (uint64 in Go; every real size fits a JS number exactly).
 */

/** MemoryTable, fields in the Go struct's order (the checkpoint and its checksum depend on it). */
export interface MemoryTable {
  totalMemSize: number;
  systemReserved: number;
  allocatable: number;
  reserved: number;
  free: number;
}

export interface NUMANodeState {
  /** Memory assignments from this node (a container with memory and hugepages counts twice). */
  numberOfAssignments: number;
  /** Memory type → table. */
  memoryMap: Record<string, MemoryTable>;
  /** This node and the nodes it is grouped with by a multi-NUMA allocation. */
  cells: number[];
}

/** NUMA node id → state. */
export type NUMANodeMap = Map<number, NUMANodeState>;

export interface Block {
  numaAffinity: number[];
  /** The memory type (v1.ResourceName): memory, hugepages-2Mi, hugepages-1Gi, ... */
  type: string;
  size: number;
}

/** pod uid → container name → blocks. */
export type ContainerMemoryAssignments = Map<string, Map<string, Block[]>>;

export const RESOURCE_MEMORY = 'memory';

export function isMemoryResource(name: string): boolean {
  return name === RESOURCE_MEMORY || name.startsWith('hugepages-');
}

export function cloneMachineState(m: NUMANodeMap): NUMANodeMap {
  const out: NUMANodeMap = new Map();
  for (const [id, s] of m) {
    const memoryMap: Record<string, MemoryTable> = {};
    for (const [t, table] of Object.entries(s.memoryMap)) memoryMap[t] = { ...table };
    out.set(id, { numberOfAssignments: s.numberOfAssignments, memoryMap, cells: [...s.cells] });
  }
  return out;
}

export function cloneBlocks(blocks: readonly Block[]): Block[] {
  return blocks.map((b) => ({ numaAffinity: [...b.numaAffinity], type: b.type, size: b.size }));
}

export function cloneAssignments(a: ContainerMemoryAssignments): ContainerMemoryAssignments {
  const out: ContainerMemoryAssignments = new Map();
  for (const [pod, containers] of a) out.set(pod, new Map([...containers].map(([c, b]) => [c, cloneBlocks(b)])));
  return out;
}

/** The State interface: reads return copies, writes go through the methods (the checkpointed state persists each). */
export interface MemoryState {
  getMachineState(): NUMANodeMap;
  getMemoryBlocks(podUid: string, containerName: string): Block[] | undefined;
  getMemoryAssignments(): ContainerMemoryAssignments;
  setMachineState(m: NUMANodeMap): void;
  setMemoryBlocks(podUid: string, containerName: string, blocks: Block[]): void;
  setMemoryAssignments(a: ContainerMemoryAssignments): void;
  delete(podUid: string, containerName: string): void;
  clearState(): void;
}

/** state_mem.go: the in-memory state. */
export class InMemoryState implements MemoryState {
  protected machine: NUMANodeMap = new Map();
  protected assignments: ContainerMemoryAssignments = new Map();

  getMachineState(): NUMANodeMap {
    return cloneMachineState(this.machine);
  }

  getMemoryBlocks(podUid: string, containerName: string): Block[] | undefined {
    const b = this.assignments.get(podUid)?.get(containerName);
    return b ? cloneBlocks(b) : undefined;
  }

  getMemoryAssignments(): ContainerMemoryAssignments {
    return cloneAssignments(this.assignments);
  }

  setMachineState(m: NUMANodeMap): void {
    this.machine = cloneMachineState(m);
    this.changed();
  }

  setMemoryBlocks(podUid: string, containerName: string, blocks: Block[]): void {
    let pod = this.assignments.get(podUid);
    if (!pod) this.assignments.set(podUid, (pod = new Map()));
    pod.set(containerName, cloneBlocks(blocks));
    this.changed();
  }

  setMemoryAssignments(a: ContainerMemoryAssignments): void {
    this.assignments = cloneAssignments(a);
    this.changed();
  }

  delete(podUid: string, containerName: string): void {
    const pod = this.assignments.get(podUid);
    if (!pod) return;
    pod.delete(containerName);
    if (pod.size === 0) this.assignments.delete(podUid);
    this.changed();
  }

  clearState(): void {
    this.machine = new Map();
    this.assignments = new Map();
    this.changed();
  }

  /** Called after every write (the checkpointed state writes its file). */
  protected changed(): void {}
}
