/**
 * The memory manager's Static policy (memorymanager/policy_static.go v1.28): Guaranteed pods get memory (and
 * hugepages) blocks on the NUMA nodes of their topology hint; the machine state counts what each node has free;
 * a restarted kubelet checks the state file against the machine and the reservation.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { getPodQOS } from '../../api/qos.ts';
import type { Logger } from '../../util/logger.ts';
import { sameItems } from '../../util/same-items.ts';
import { BitMask } from '../topologymanager/bitmask.ts';
import type { Store, TopologyHint, TopologyHints } from '../topologymanager/types.ts';
import type { SystemReservedMemory } from './reserved.ts';
import { RESOURCE_MEMORY, type Block, type MemoryState, type NUMANodeMap, type NUMANodeState } from './state.ts';
import { affinitySatisfies, areGroupsEqual, calculateHints, containerRequests, findBestHint, isHintInGroup, podRequests, regenerateHints, type Requests } from './static-hints.ts';

/** A NUMA node of the machine: its memory and hugepages (cAdvisor's Node; h3's topology NumaNode fits). */
export interface MemoryNumaNode {
  id: number;
  memoryBytes: number;
  hugePages?: ReadonlyArray<{ pageSizeKiB: number; numPages: number }>;
}

export const POLICY_STATIC = 'Static';
export const POLICY_NONE = 'None';

/** HugePageResourceName of a page size: 2048 KiB → hugepages-2Mi, 1048576 KiB → hugepages-1Gi. */
export function hugePageResource(pageSizeKiB: number): string {
  const bytes = pageSizeKiB * 1024;
  for (const [s, f] of [['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) if (bytes % f === 0) return `hugepages-${bytes / f}${s}`;
  return `hugepages-${bytes}`;
}

function isInitContainer(pod: V1Pod, c: V1Container): boolean {
  const init = pod.spec?.initContainers?.find((i) => i.name === c.name);
  return init !== undefined && init.restartPolicy !== 'Always';
}

export class StaticPolicy {
  readonly name = POLICY_STATIC;
  /** pod uid → mask string → memory type → bytes the pod's init containers leave for its next containers. */
  private reusable = new Map<string, Map<string, Map<string, number>>>();

  constructor(
    private readonly nodes: readonly MemoryNumaNode[],
    private readonly systemReserved: SystemReservedMemory,
    private readonly affinity: Store,
    private readonly logger: Logger,
  ) {
    let total = 0;
    for (const n of systemReserved.values()) total += n.get(RESOURCE_MEMORY) ?? 0;
    if (total <= 0) throw new Error('[memorymanager] you should specify the system reserved memory');
  }

  private reserved(node: number, resource: string): number {
    return this.systemReserved.get(node)?.get(resource) ?? 0;
  }

  /** getDefaultMachineState: per node its hugepages, then memory less the reservation and the hugepages. */
  defaultMachineState(): NUMANodeMap {
    const m: NUMANodeMap = new Map();
    for (const node of this.nodes) {
      const state: NUMANodeState = { numberOfAssignments: 0, memoryMap: {}, cells: [node.id] };
      let hugepages = 0;
      for (const hp of node.hugePages ?? []) {
        const name = hugePageResource(hp.pageSizeKiB);
        const total = hp.numPages * hp.pageSizeKiB * 1024;
        const sr = this.reserved(node.id, name);
        state.memoryMap[name] = { totalMemSize: total, systemReserved: sr, allocatable: total - sr, reserved: 0, free: total - sr };
        hugepages += total;
      }
      const sr = this.reserved(node.id, RESOURCE_MEMORY);
      const allocatable = node.memoryBytes - sr - hugepages;
      state.memoryMap[RESOURCE_MEMORY] = { totalMemSize: node.memoryBytes, systemReserved: sr, allocatable, reserved: 0, free: allocatable };
      m.set(node.id, state);
    }
    return m;
  }

  /** Start → validateState: an empty state gets the default machine state; a restored one must match it. */
  start(s: MemoryState): void {
    const machine = s.getMachineState();
    const assignments = s.getMemoryAssignments();
    if (machine.size === 0) {
      if (assignments.size !== 0) throw new Error('[memorymanager] machine state can not be empty when it has memory assignments');
      s.setMachineState(this.defaultMachineState());
      return;
    }
    const expected = this.defaultMachineState();
    for (const [pod, containers] of assignments) {
      for (const [container, blocks] of containers) {
        for (const b of blocks) {
          let size = b.size;
          for (const id of b.numaAffinity) {
            const node = expected.get(id);
            if (!node) throw new Error(`[memorymanager] (pod: ${pod}, container: ${container}) the memory assignment uses the NUMA that does not exist`);
            node.numberOfAssignments++;
            node.cells = [...b.numaAffinity];
            const t = node.memoryMap[b.type];
            if (!t) throw new Error(`[memorymanager] (pod: ${pod}, container: ${container}) the memory assignment uses memory resource that does not exist`);
            size = take(t, size);
          }
        }
      }
    }
    if (!machineStatesEqual(machine, expected)) throw new Error('[memorymanager] the expected machine state is different from the real one');
  }

  getTopologyHints(s: MemoryState, pod: V1Pod, c: V1Container): TopologyHints {
    if (getPodQOS(pod) !== 'Guaranteed') return null;
    const requests = containerRequests(c);
    const blocks = s.getMemoryBlocks(pod.metadata?.uid ?? '', c.name);
    if (blocks) return regenerateHints(blocks, requests);
    return calculateHints(s.getMachineState(), requests, this.reusableFor(pod));
  }

  getPodTopologyHints(s: MemoryState, pod: V1Pod): TopologyHints {
    if (getPodQOS(pod) !== 'Guaranteed') return null;
    const requests = podRequests(pod);
    for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
      const blocks = s.getMemoryBlocks(pod.metadata?.uid ?? '', c.name);
      if (blocks) return regenerateHints(blocks, requests);
    }
    return calculateHints(s.getMachineState(), requests, () => 0);
  }

  allocate(s: MemoryState, pod: V1Pod, c: V1Container): void {
    if (getPodQOS(pod) !== 'Guaranteed') return;
    const uid = pod.metadata?.uid ?? '';
    const existing = s.getMemoryBlocks(uid, c.name);
    if (existing) {
      this.updateReusable(pod, c, existing);
      return;
    }
    const hint = this.affinity.getAffinity(uid, c.name);
    const requests = containerRequests(c);
    const machine = s.getMachineState();
    let best: TopologyHint = hint;
    if (hint.numaNodeAffinity === null) {
      const hints = calculateHints(machine, requests, this.reusableFor(pod));
      if (Object.keys(hints).length < 1) throw new Error('[memorymanager] failed to get the default NUMA affinity, no NUMA nodes with enough memory is available');
      const def = findBestHint(hints[RESOURCE_MEMORY] ?? []);
      if (!def.preferred && best.preferred) throw new Error('[memorymanager] failed to find the default preferred hint');
      best = def;
    }
    if (best.numaNodeAffinity === null || !affinitySatisfies(machine, best.numaNodeAffinity, requests)) {
      const ext = this.extendHint(machine, pod, requests, best.numaNodeAffinity ?? BitMask.empty());
      if (!ext.preferred && best.preferred) throw new Error('[memorymanager] failed to find the extended preferred hint');
      best = ext;
    }
    const bits = best.numaNodeAffinity!.getBits();
    const blocks: Block[] = [];
    for (const [type, size] of [...requests].sort(([a], [b]) => (a < b ? -1 : 1))) {
      blocks.push({ numaAffinity: bits, type, size });
      const reuse = this.reusableFor(pod)(best.numaNodeAffinity!, type);
      updateMachineState(machine, bits, type, reuse >= size ? 0 : size - reuse);
    }
    this.updateReusable(pod, c, blocks);
    s.setMachineState(machine);
    s.setMemoryBlocks(uid, c.name, blocks);
    this.updateInitContainersBlocks(s, pod, c, blocks);
    this.logger.info('Allocated exclusive memory', { pod: `${pod.metadata?.namespace}/${pod.metadata?.name}`, containerName: c.name, numaNodes: bits });
  }

  /** extendTopologyManagerHint: the best hint for the whole request that includes the given nodes. */
  private extendHint(machine: NUMANodeMap, pod: V1Pod, requests: Requests, mask: BitMask): TopologyHint {
    const hints = calculateHints(machine, requests, this.reusableFor(pod))[RESOURCE_MEMORY] ?? [];
    const filtered = hints.filter((h) => isHintInGroup(mask.getBits(), h.numaNodeAffinity!.getBits()));
    if (filtered.length < 1) throw new Error('[memorymanager] failed to find NUMA nodes to extend the current topology hint');
    return findBestHint(filtered);
  }

  removeContainer(s: MemoryState, podUid: string, containerName: string): void {
    const blocks = s.getMemoryBlocks(podUid, containerName);
    if (!blocks) return;
    this.logger.info('RemoveContainer', { podUID: podUid, containerName });
    s.delete(podUid, containerName);
    const machine = s.getMachineState();
    for (const b of blocks) {
      let released = b.size;
      for (const id of b.numaAffinity) {
        const node = machine.get(id);
        if (!node) continue;
        node.numberOfAssignments--;
        if (node.numberOfAssignments === 0) node.cells = [id];
        const t = node.memoryMap[b.type];
        if (released === 0 || !t || t.reserved === 0) continue;
        const back = Math.min(t.reserved, released);
        t.free += back;
        t.reserved -= back;
        released -= back;
      }
    }
    s.setMachineState(machine);
  }

  /** GetAllocatableMemory: one block per node and memory type with its allocatable size. */
  allocatableMemory(s: MemoryState): Block[] {
    const out: Block[] = [];
    for (const [id, node] of [...s.getMachineState()].sort(([a], [b]) => a - b)) {
      for (const [type, t] of Object.entries(node.memoryMap).sort(([a], [b]) => (a < b ? -1 : 1))) out.push({ numaAffinity: [id], type, size: t.allocatable });
    }
    return out;
  }

  private reusableFor(pod: V1Pod): (mask: BitMask, type: string) => number {
    const m = this.reusable.get(pod.metadata?.uid ?? '');
    return (mask, type) => m?.get(mask.toString())?.get(type) ?? 0;
  }

  /** updatePodReusableMemory: an init container's blocks become reusable; an app container's use them up. */
  private updateReusable(pod: V1Pod, c: V1Container, blocks: readonly Block[]): void {
    const uid = pod.metadata?.uid ?? '';
    for (const other of [...this.reusable.keys()]) if (other !== uid) this.reusable.delete(other);
    if (isInitContainer(pod, c)) {
      let m = this.reusable.get(uid);
      if (!m) this.reusable.set(uid, (m = new Map()));
      for (const b of blocks) {
        const key = BitMask.of(...b.numaAffinity).toString();
        let byType = m.get(key);
        if (!byType) m.set(key, (byType = new Map()));
        if (b.size > (byType.get(b.type) ?? 0)) byType.set(b.type, b.size);
      }
      return;
    }
    for (const b of blocks) {
      const byType = this.reusable.get(uid)?.get(BitMask.of(...b.numaAffinity).toString());
      const have = byType?.get(b.type) ?? 0;
      if (have !== 0) byType!.set(b.type, b.size >= have ? 0 : have - b.size);
    }
  }

  /** updateInitContainersMemoryBlocks: earlier init containers' blocks shrink by what this container reused. */
  private updateInitContainersBlocks(s: MemoryState, pod: V1Pod, c: V1Container, blocks: readonly Block[]): void {
    const uid = pod.metadata?.uid ?? '';
    for (const cb of blocks) {
      let size = cb.size;
      for (const init of pod.spec?.initContainers ?? []) {
        if (init.name === c.name || size === 0) break;
        if (init.restartPolicy === 'Always') continue;
        const initBlocks = s.getMemoryBlocks(uid, init.name);
        if (!initBlocks || initBlocks.length === 0) continue;
        for (const ib of initBlocks) {
          if (ib.size === 0 || ib.type !== cb.type || !sameItems(ib.numaAffinity, cb.numaAffinity)) continue;
          const used = Math.min(ib.size, size);
          ib.size -= used;
          size -= used;
        }
        s.setMemoryBlocks(uid, init.name, initBlocks);
      }
    }
  }
}


/** Takes up to `size` from the table's free memory into reserved; returns what is left to take. */
function take(t: { free: number; reserved: number }, size: number): number {
  if (size === 0 || t.free <= 0) return size;
  const n = Math.min(t.free, size);
  t.reserved += n;
  t.free -= n;
  return size - n;
}

/** updateMachineState: every node of the affinity counts the assignment; the size is taken node by node. */
function updateMachineState(machine: NUMANodeMap, bits: number[], type: string, size: number): void {
  let left = size;
  for (const id of bits) {
    const node = machine.get(id)!;
    node.numberOfAssignments++;
    node.cells = [...bits];
    const t = node.memoryMap[type];
    if (t) left = take(t, left);
  }
}

/**
 * areMachineStatesEqual (v1.28): the same nodes, assignment counts and cell groups, and every memory table
 * equal field by field (reflect.DeepEqual; the per-group comparison of free/reserved came in v1.32).
 */
function machineStatesEqual(a: NUMANodeMap, b: NUMANodeMap): boolean {
  if (a.size !== b.size) return false;
  for (const [id, x] of a) {
    const y = b.get(id);
    if (!y || x.numberOfAssignments !== y.numberOfAssignments || !areGroupsEqual(x.cells, y.cells)) return false;
    if (Object.keys(x.memoryMap).length !== Object.keys(y.memoryMap).length) return false;
    for (const [type, p] of Object.entries(x.memoryMap)) {
      const q = y.memoryMap[type];
      if (!q || p.totalMemSize !== q.totalMemSize || p.systemReserved !== q.systemReserved || p.allocatable !== q.allocatable || p.reserved !== q.reserved || p.free !== q.free) return false;
    }
  }
  return true;
}
