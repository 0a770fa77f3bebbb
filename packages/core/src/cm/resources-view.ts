/**
 * The node's hardware as the resource managers hand it out, in one read-only view (the console's Resources page,
 * tRPC `resources.get`): CPUs (the shared pool and each container's exclusive CPUs), memory per NUMA node, and
 * every device plugin resource's devices with their health and the container holding each. The CPU and memory
 * parts come from their managers when they run; without them the policies are `none` / `None` and every CPU is in
 * the shared pool, as on a kubelet with the default policies.
 */
import type { PodRef } from '../events/types.ts';
import { idsOf } from './devicemanager/pod-devices.ts';
import type { ContainerDevices, PluginDevice } from './devicemanager/types.ts';
import { byCodeUnit } from '../util/compare.ts';

export interface ContainerRef {
  pod: PodRef;
  container: string;
}

export interface CpuResourcesView {
  /** cpuManagerPolicy: `none` or `static`. */
  policy: string;
  /** Every online CPU in the Linux list format (`0-3`); '' when unknown. */
  online: string;
  /** The shared pool: where every container without exclusive CPUs runs. */
  shared: string;
  /** reservedSystemCPUs (or the CPUs the static policy reserved for kubeReserved + systemReserved). */
  reserved: string;
  exclusive: Array<ContainerRef & { cpus: string }>;
}

export interface NumaMemoryView {
  node: number;
  /** Bytes: the node's memory, what reservedMemory keeps, what the Static policy may assign, what it assigned. */
  total: number;
  reserved: number;
  allocatable: number;
  assigned: number;
  assignments: Array<ContainerRef & { bytes: number }>;
}

export interface MemoryResourcesView {
  /** memoryManagerPolicy: `None` or `Static`. */
  policy: string;
  nodes: NumaMemoryView[];
}

export interface DeviceView {
  id: string;
  healthy: boolean;
  numaNodes: number[];
  /** The container the device is allocated (or, before its start, reserved) to. */
  holder?: ContainerRef;
}

export interface DeviceResourceView {
  resource: string;
  /** The plugin is connected (false: it went away; its devices count as unhealthy until the resource goes). */
  connected: boolean;
  capacity: number;
  allocatable: number;
  devices: DeviceView[];
}

export interface NodeResourcesView {
  cpu: CpuResourcesView;
  memory: MemoryResourcesView;
  devices: DeviceResourceView[];
}

export interface NodeResourcesApi {
  view(): NodeResourcesView;
}

export interface ResourcesViewSources {
  /** The device manager's state (DeviceState). */
  devices?: { inventory(): Array<{ resource: string; connected: boolean; devices: PluginDevice[] }>; pods: { entries(): ContainerDevices[] } };
  /** The CPU manager's view (absent: policy none). */
  cpu?: () => CpuResourcesView;
  /** The memory manager's view (absent: policy None). */
  memory?: () => MemoryResourcesView;
  /** The pod of a uid, for its name; an unknown uid shows with an empty name. */
  pod: (uid: string) => PodRef | undefined;
  /** Online CPUs when no CPU manager runs (every one is in the shared pool). */
  onlineCpus?: number;
}

/** What the CPU manager shows (CpuManager.snapshot()): CPU sets print in the Linux list format. */
export interface CpuSnapshot {
  policy: string;
  /** Online CPUs (absent: the count the view is given). */
  online?: { toString(): string };
  /** The shared pool (empty: every online CPU). */
  shared: { toString(): string };
  /** Pod uid → container → exclusive CPUs. */
  assignments: ReadonlyMap<string, ReadonlyMap<string, { toString(): string }>>;
  reserved?: { toString(): string };
}

/** The CPU part of the view from the CPU manager's snapshot. */
export function cpuResourcesView(s: CpuSnapshot, onlineCpus: number, pod: (uid: string) => PodRef | undefined): CpuResourcesView {
  const online = s.online?.toString() || allCpus(onlineCpus);
  const exclusive = [...s.assignments].flatMap(([uid, byContainer]) =>
    [...byContainer].map(([container, cpus]) => ({ pod: podOrUid(pod, uid), container, cpus: cpus.toString() })),
  );
  exclusive.sort((a, b) => byCodeUnit(`${a.pod.namespace}/${a.pod.name}/${a.container}`, `${b.pod.namespace}/${b.pod.name}/${b.container}`));
  return { policy: s.policy, online, shared: s.shared.toString() || online, reserved: s.reserved?.toString() ?? '', exclusive };
}

/** What the memory manager shows (its machine state and assignments, as in memory_manager_state). */
export interface MemorySnapshot {
  policy: string;
  /** NUMA node → memory type → the kubelet's MemoryTable (`reserved` there is what containers were assigned). */
  machineState: ReadonlyMap<number, { memoryMap: Record<string, { totalMemSize: number; systemReserved: number; allocatable: number; reserved: number }> }>;
  /** Pod uid → container → blocks. */
  assignments: ReadonlyMap<string, ReadonlyMap<string, ReadonlyArray<{ numaAffinity: readonly number[]; type: string; size: number }>>>;
}

/** The memory part of the view: each node's `memory` table and the containers' `memory` blocks on it. */
export function memoryResourcesView(s: MemorySnapshot, pod: (uid: string) => PodRef | undefined): MemoryResourcesView {
  const nodes = [...s.machineState].sort(([a], [b]) => a - b).map(([node, state]): NumaMemoryView => {
    const t = state.memoryMap.memory ?? { totalMemSize: 0, systemReserved: 0, allocatable: 0, reserved: 0 };
    const assignments = [...s.assignments].flatMap(([uid, byContainer]) =>
      [...byContainer].flatMap(([container, blocks]) =>
        blocks.filter((b) => b.type === 'memory' && b.numaAffinity.includes(node)).map((b) => ({ pod: podOrUid(pod, uid), container, bytes: b.size })),
      ),
    );
    return { node, total: t.totalMemSize, reserved: t.systemReserved, allocatable: t.allocatable, assigned: t.reserved, assignments };
  });
  return { policy: s.policy, nodes };
}

/** A pod the pod manager no longer knows shows with its uid only. */
const podOrUid = (pod: (uid: string) => PodRef | undefined, uid: string): PodRef => pod(uid) ?? { namespace: '', name: '', uid };

/** `0-3` for 4 CPUs; '' for none. */
export const allCpus = (n: number): string => (n <= 0 ? '' : n === 1 ? '0' : `0-${n - 1}`);

export function nodeResourcesView(src: ResourcesViewSources): NodeResourcesView {
  const online = allCpus(src.onlineCpus ?? 0);
  return {
    cpu: src.cpu?.() ?? { policy: 'none', online, shared: online, reserved: '', exclusive: [] },
    memory: src.memory?.() ?? { policy: 'None', nodes: [] },
    devices: src.devices ? deviceViews(src.devices, src.pod) : [],
  };
}

function deviceViews(devices: NonNullable<ResourcesViewSources['devices']>, pod: (uid: string) => PodRef | undefined): DeviceResourceView[] {
  const holders = new Map<string, Map<string, ContainerRef>>();
  for (const e of devices.pods.entries()) {
    const ref: ContainerRef = { pod: podOrUid(pod, e.podUid), container: e.containerName };
    let byId = holders.get(e.resource);
    if (!byId) holders.set(e.resource, (byId = new Map()));
    for (const id of idsOf(e)) byId.set(id, ref);
  }
  const listed = devices.inventory();
  // Devices still held after their plugin's resource went (past the grace period): shown, unhealthy.
  for (const [resource, byId] of holders) {
    if (!listed.some((r) => r.resource === resource)) listed.push({ resource, connected: false, devices: [...byId.keys()].sort().map((id) => ({ id, healthy: false, numaNodes: [] })) });
  }
  return listed
    .sort((a, b) => byCodeUnit(a.resource, b.resource))
    .map((r) => ({
      resource: r.resource,
      connected: r.connected,
      capacity: r.devices.length,
      allocatable: r.devices.filter((d) => d.healthy).length,
      devices: r.devices.map((d) => {
        const holder = holders.get(r.resource)?.get(d.id);
        return { id: d.id, healthy: d.healthy, numaNodes: d.numaNodes, ...(holder ? { holder } : {}) };
      }),
    }));
}
