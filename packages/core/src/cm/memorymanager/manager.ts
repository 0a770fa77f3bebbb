/**
 * The memory manager (memorymanager/memory_manager.go v1.28): `memoryManagerPolicy` None or Static, its state
 * in `<root-dir>/memory_manager_state`, a hint provider of the topology manager (memory and hugepages of
 * Guaranteed pods), and the NUMA nodes a container's memory is on (cpuset.mems at container creation).
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { Logger } from '../../util/logger.ts';
import type { HintProvider, Store, TopologyHints } from '../topologymanager/types.ts';
import { CheckpointState } from './checkpoint.ts';
import { POLICY_NONE, POLICY_STATIC, StaticPolicy, type MemoryNumaNode } from './policy-static.ts';
import { systemReservedMemory, type MemoryReservation } from './reserved.ts';
import { InMemoryState, type Block, type ContainerMemoryAssignments, type MemoryState, type NUMANodeMap } from './state.ts';

export interface MemoryManagerOptions {
  /** `memoryManagerPolicy`: None (default) or Static. */
  policy?: string;
  /** The machine's NUMA nodes with their memory and hugepages. */
  nodes: readonly MemoryNumaNode[];
  /** Node Allocatable reservation in bytes per resource (kubeReserved + systemReserved + evictionHard). */
  reservation: Readonly<Record<string, number>>;
  /** `reservedMemory`. */
  reservedMemory?: readonly MemoryReservation[];
  /** Where memory_manager_state lives (the root dir); none → the state is kept in memory only. */
  stateDir?: string;
  affinity: Store;
  logger: Logger;
  /** Active pods (for the stale state removal before each allocation) and whether every pod source was seen. */
  activePods?: () => V1Pod[];
  sourcesReady?: () => boolean;
}

export class MemoryManager implements HintProvider {
  private state: MemoryState = new InMemoryState();
  private readonly containers = new Map<string, { podUid: string; name: string }>();

  private constructor(
    private readonly opts: MemoryManagerOptions,
    private readonly policy: StaticPolicy | undefined,
  ) {}

  /** NewManager: throws the kubelet's errors (unknown policy, reservedMemory not matching Node Allocatable). */
  static create(opts: MemoryManagerOptions): MemoryManager {
    const name = opts.policy ?? POLICY_NONE;
    if (name === POLICY_NONE) return new MemoryManager(opts, undefined);
    if (name !== POLICY_STATIC) throw new Error(`unknown policy: "${name}"`);
    const reserved = systemReservedMemory(
      opts.nodes.map((n) => n.id),
      opts.reservation,
      opts.reservedMemory ?? [],
    );
    return new MemoryManager(opts, new StaticPolicy(opts.nodes, reserved, opts.affinity, opts.logger));
  }

  get policyName(): string {
    return this.policy?.name ?? POLICY_NONE;
  }

  /** The state file's path (undefined without a state dir). */
  get stateFile(): string | undefined {
    return this.state instanceof CheckpointState ? this.state.file : undefined;
  }

  /** Start: the state restored (or created), then the policy's validation. Throws; the kubelet does not start. */
  start(): void {
    this.opts.logger.info('Starting memorymanager', { policy: this.policyName });
    if (this.opts.stateDir) this.state = new CheckpointState(this.opts.stateDir, this.policyName);
    try {
      this.policy?.start(this.state);
    } catch (err) {
      this.opts.logger.error('Invalid state, please drain node and remove policy state file', { err: (err as Error).message, file: this.stateFile });
      throw err;
    }
  }

  getTopologyHints(pod: V1Pod, container: V1Container): TopologyHints {
    return this.policy?.getTopologyHints(this.state, pod, container) ?? null;
  }

  getPodTopologyHints(pod: V1Pod): TopologyHints {
    return this.policy?.getPodTopologyHints(this.state, pod) ?? null;
  }

  /** Allocate: stale state of pods no longer active removed first; throws the policy's errors. */
  allocate(pod: V1Pod, container: V1Container): void {
    if (!this.policy) return;
    this.removeStaleState(pod);
    this.policy.allocate(this.state, pod, container);
  }

  /** AddContainer: tracks the id; init containers that ran before this container give their memory back. */
  addContainer(pod: V1Pod, container: V1Container, containerId: string): void {
    const uid = pod.metadata?.uid ?? '';
    this.containers.set(containerId, { podUid: uid, name: container.name });
    for (const init of pod.spec?.initContainers ?? []) {
      if (init.name === container.name) break;
      if (init.restartPolicy === 'Always') continue;
      this.policy?.removeContainer(this.state, uid, init.name);
    }
  }

  removeContainer(containerId: string): void {
    const ref = this.containers.get(containerId);
    if (!ref) return;
    this.containers.delete(containerId);
    this.policy?.removeContainer(this.state, ref.podUid, ref.name);
  }

  /** GetMemoryNUMANodes: the nodes of the container's blocks, ascending (undefined: none assigned). */
  getMemoryNUMANodes(pod: V1Pod, container: V1Container): number[] | undefined {
    const nodes = new Set<number>();
    for (const b of this.state.getMemoryBlocks(pod.metadata?.uid ?? '', container.name) ?? []) for (const n of b.numaAffinity) nodes.add(n);
    return nodes.size > 0 ? [...nodes].sort((a, b) => a - b) : undefined;
  }

  /** GetMemory (pod resources API): the container's blocks. */
  getMemory(podUid: string, containerName: string): Block[] {
    return this.state.getMemoryBlocks(podUid, containerName) ?? [];
  }

  /** GetAllocatableMemory (pod resources API). */
  getAllocatableMemory(): Block[] {
    return this.policy?.allocatableMemory(this.state) ?? [];
  }

  /** The state as memory_manager_state holds it (the console's resources page). */
  snapshot(): { policy: string; machineState: NUMANodeMap; assignments: ContainerMemoryAssignments } {
    return { policy: this.policyName, machineState: this.state.getMachineState(), assignments: this.state.getMemoryAssignments() };
  }

  /** removeStaleState: once every source is seen, containers of pods no longer active lose their memory. */
  private removeStaleState(admitting: V1Pod): void {
    if (!(this.opts.sourcesReady?.() ?? true) || !this.opts.activePods) return;
    const active = new Map<string, Set<string>>();
    for (const p of [admitting, ...this.opts.activePods()]) {
      active.set(p.metadata?.uid ?? '', new Set([...(p.spec?.initContainers ?? []), ...(p.spec?.containers ?? [])].map((c) => c.name)));
    }
    for (const [podUid, containers] of this.state.getMemoryAssignments()) {
      for (const name of containers.keys()) {
        if (active.get(podUid)?.has(name)) continue;
        this.opts.logger.info('RemoveStaleState removing state', { podUID: podUid, containerName: name });
        this.policy?.removeContainer(this.state, podUid, name);
      }
    }
    for (const [id, ref] of this.containers) if (!active.get(ref.podUid)?.has(ref.name)) this.containers.delete(id);
  }
}
