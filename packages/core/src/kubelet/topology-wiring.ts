/**
 * The kubelet's topology manager and memory manager on a real host (deps.hostFs), as NewContainerManager builds
 * them: the topology manager from topologyManagerPolicy / Scope / PolicyOptions and the machine's NUMA nodes;
 * its hint providers the device, CPU and memory managers (in that order); its admit handler replacing theirs
 * (GetAllocateResourcesPodAdmitHandler); the memory manager from memoryManagerPolicy and reservedMemory checked
 * against the Node Allocatable reservation; cpuset.mems of a container's memory NUMA nodes at creation
 * (PreCreateContainer).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { computeReservation } from '../cm/node-allocatable.ts';
import type { MachineInfo } from '../cm/topology/machine-info.ts';
import type { DeviceManager } from '../cm/devicemanager/manager.ts';
import { DeviceHintProvider } from '../cm/devicemanager/topology-hints.ts';
import { TopologyManager } from '../cm/topologymanager/manager.ts';
import type { HintProvider } from '../cm/topologymanager/types.ts';
import { MemoryManager } from '../cm/memorymanager/manager.ts';
import type { InternalContainerLifecycle } from '../kuberuntime/start-container.ts';
import type { PodAdmitHandler } from '../lifecycle/types.ts';
import type { ContainerMemory, MemoryProvider } from '../podresources/types.ts';
import { tryParseQuantity } from '../util/quantity.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';
import type { KubeletMetrics } from '../metrics/kubelet-metrics.ts';
import { machineInfoOf } from './cpu-wiring.ts';


/** NewManager; throws the kubelet's error (an unknown policy or scope stops the kubelet). */
export function buildTopologyManager(deps: KubeletDeps, config: KubeletConfig, machine: MachineInfo, metrics?: KubeletMetrics): TopologyManager | undefined {
  if (!deps.hostFs) return undefined;
  const s = config.topologyManager ?? {};
  return TopologyManager.create({
    ...(s.policy ? { policy: s.policy } : {}),
    ...(s.scope ? { scope: s.scope } : {}),
    ...(s.policyOptions ? { policyOptions: s.policyOptions } : {}),
    numaNodes: machine.topology.map((n) => ({ id: n.id, distances: n.distances })),
    logger: deps.logger.child('topologymanager'),
    ...(metrics
      ? { metrics: { admissionRequests: metrics.topologyManagerAdmissionRequests, admissionErrors: metrics.topologyManagerAdmissionErrors, admissionDuration: metrics.topologyManagerAdmissionDuration } }
      : {}),
  });
}

/** GetNodeAllocatableReservation for memory types: kubeReserved + systemReserved + evictionHard memory.available. */
export function memoryReservation(config: KubeletConfig, machine: MachineInfo): Record<string, number> {
  const stats = config.stats ?? {};
  const r = computeReservation(
    {
      capacity: { cpuMilli: 0, memoryBytes: machine.memoryCapacityBytes, ephemeralStorageBytes: 0, pods: 0 },
      ...(stats.kubeReserved ? { kubeReserved: stats.kubeReserved } : {}),
      ...(stats.systemReserved ? { systemReserved: stats.systemReserved } : {}),
      evictionHard: { 'memory.available': stats.evictionHard?.['memory.available'] ?? '100Mi' },
    },
    true,
  );
  if (!r.ok) throw new Error(r.message);
  const out: Record<string, number> = r.r.memoryBytes ? { memory: r.r.memoryBytes } : {};
  for (const list of [stats.kubeReserved, stats.systemReserved]) {
    for (const [name, q] of Object.entries(list ?? {})) {
      const v = name.startsWith('hugepages-') ? tryParseQuantity(q) : undefined;
      if (v?.ok) out[name] = (out[name] ?? 0) + v.value;
    }
  }
  return out;
}

/** NewManager + Start: throws the kubelet's errors (reservedMemory, a state file it cannot use). */
export function buildMemoryManager(
  deps: KubeletDeps,
  config: KubeletConfig,
  machine: MachineInfo,
  tm: TopologyManager,
  parts: { activePods: () => V1Pod[]; sourcesReady: () => boolean },
): MemoryManager {
  const s = config.memoryManager ?? {};
  const mm = MemoryManager.create({
    ...(s.policy ? { policy: s.policy } : {}),
    nodes: machine.topology.map((n) => ({ id: n.id, memoryBytes: n.memoryBytes, hugePages: n.hugePages })),
    reservation: memoryReservation(config, machine),
    ...(s.reservedMemory ? { reservedMemory: s.reservedMemory } : {}),
    stateDir: config.rootDir,
    affinity: tm,
    logger: deps.logger.child('memorymanager'),
    activePods: parts.activePods,
    sourcesReady: parts.sourcesReady,
  });
  return mm;
}

export interface ResourceTopology {
  tm: TopologyManager;
  mm: MemoryManager;
  /** AddHintProvider in NewContainerManager's order: the device manager, the CPU manager, the memory manager. */
  addProviders(devices: DeviceManager | undefined, cpu: HintProvider | undefined): void;
}

/** Both managers on a real host (none without deps.hostFs); throws the kubelet's configuration errors. */
export function buildResourceTopology(deps: KubeletDeps, config: KubeletConfig, parts: { activePods: () => V1Pod[]; sourcesReady: () => boolean; metrics?: KubeletMetrics | undefined }): ResourceTopology | undefined {
  if (!deps.hostFs) return undefined;
  const machine = machineInfoOf(deps);
  const tm = buildTopologyManager(deps, config, machine, parts.metrics)!;
  const mm = buildMemoryManager(deps, config, machine, tm, parts);
  return {
    tm,
    mm,
    addProviders(devices, cpu) {
      const numaNodes = machine.topology.map((n) => n.id);
      const deviceHints = devices ? new DeviceHintProvider(devices, { numaNodes, affinity: tm, activePods: parts.activePods }) : undefined;
      for (const p of [deviceHints, cpu, mm]) if (p) tm.addHintProvider(p);
    },
  };
}

/** The container manager's Start of the memory manager: a state file it cannot use stops the kubelet. */
export function startMemoryManager(mm: MemoryManager | undefined): void {
  try {
    mm?.start();
  } catch (err) {
    throw new Error(`start memory manager error: ${(err as Error).message}`);
  }
}

/** The topology manager's handler where the first per-manager allocator stood (theirs go: it calls them). */
export function withTopologyAdmission(handlers: readonly PodAdmitHandler[], tm: TopologyManager | undefined): PodAdmitHandler[] {
  if (!tm) return [...handlers];
  const replaced = new Set(['cpumanager', 'devicemanager']);
  const first = handlers.findIndex((h) => replaced.has(h.name));
  const out = handlers.filter((h) => !replaced.has(h.name));
  const at = first >= 0 ? first : Math.max(0, out.findIndex((h) => h.name === 'predicate'));
  out.splice(at, 0, tm.admitHandler);
  return out;
}

/**
 * PreCreateContainer: cpuset.mems = the NUMA nodes of the container's memory; PreStartContainer: AddContainer;
 * PostStopContainer (before the container is removed): the topology manager's RemoveContainer drops its hint, as
 * internal_container_lifecycle_linux.go (the CPU and memory managers free theirs in removeStaleState).
 */
export function memoryLifecycle(mm: MemoryManager, tm: TopologyManager): InternalContainerLifecycle {
  return {
    preCreateContainer(pod, c, config) {
      const nodes = mm.getMemoryNUMANodes(pod, c);
      if (!nodes) return;
      config.linux = { ...(config.linux ?? {}), resources: { ...(config.linux?.resources ?? {}), cpusetMems: nodes.join(',') } };
    },
    preStartContainer(pod, c, containerId) {
      tm.addContainer(pod, c, containerId);
      mm.addContainer(pod, c, containerId);
    },
    postStopContainer(containerId) {
      tm.removeContainer(containerId);
    },
  };
}

/** Several internal lifecycles run in order (the CPU manager's, then the memory manager's). */
export function combineLifecycles(list: ReadonlyArray<InternalContainerLifecycle | undefined>): InternalContainerLifecycle | undefined {
  const ls = list.filter((l): l is InternalContainerLifecycle => l !== undefined);
  if (ls.length <= 1) return ls[0];
  return {
    preCreateContainer: (pod, c, config) => ls.forEach((l) => l.preCreateContainer(pod, c, config)),
    preStartContainer: (pod, c, id) => ls.forEach((l) => l.preStartContainer(pod, c, id)),
    postStopContainer: (id) => ls.forEach((l) => l.postStopContainer?.(id)),
  };
}

/** The pod resources API's view of the memory manager's blocks. */
export function memoryProvider(mm: MemoryManager): MemoryProvider {
  const of = (b: { type: string; size: number; numaAffinity: number[] }): ContainerMemory => ({ memoryType: b.type, size: b.size, topology: { nodes: b.numaAffinity.map((ID) => ({ ID })) } });
  return { getMemory: (uid, c) => mm.getMemory(uid, c).map(of), getAllocatableMemory: () => mm.getAllocatableMemory().map(of) };
}
