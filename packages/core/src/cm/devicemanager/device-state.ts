/**
 * The device manager's bookkeeping, synchronous and clock-injected (kubelet devicemanager/manager.go):
 * healthy/unhealthy device sets per resource from ListAndWatch, endpoints (a disconnected one marks its
 * devices unhealthy and is dropped with them after ENDPOINT_STOP_GRACE_MS), capacity/allocatable, and the
 * choice of devices for a container (devicesToAllocate) with the kubelet's error texts.
 */
import { PodDevices, idsOf } from './pod-devices.ts';
import { ENDPOINT_STOP_GRACE_MS, NODE_WITHOUT_TOPOLOGY, type ContainerDevices, type PluginDevice } from './types.ts';

export interface DeviceCapacity {
  capacity: Record<string, number>;
  allocatable: Record<string, number>;
  /** Resources whose plugin is gone past the grace period (the node reports them as 0). */
  removed: string[];
}

export type ReserveResult = { ok: true; entry?: ContainerDevices } | { ok: false; message: string };

export class DeviceState {
  readonly pods = new PodDevices();
  private readonly healthy = new Map<string, Set<string>>();
  private readonly unhealthy = new Map<string, Set<string>>();
  private readonly all = new Map<string, Map<string, PluginDevice>>();
  /** resource → when its endpoint stopped (undefined: connected). */
  private readonly endpoints = new Map<string, { stoppedAt?: number }>();

  constructor(
    private readonly clock: { now(): number },
    private readonly graceMs: number = ENDPOINT_STOP_GRACE_MS,
  ) {}

  /** A plugin connected (or reconnected) for the resource. */
  connected(resource: string): void {
    this.endpoints.set(resource, {});
    if (!this.healthy.has(resource)) this.healthy.set(resource, new Set());
    if (!this.unhealthy.has(resource)) this.unhealthy.set(resource, new Set());
  }

  /** PluginDisconnected: every device unhealthy, the endpoint's stop time set. */
  disconnected(resource: string): void {
    const ep = this.endpoints.get(resource);
    if (!ep) return;
    const un = this.unhealthy.get(resource) ?? new Set<string>();
    for (const id of this.healthy.get(resource) ?? []) un.add(id);
    this.unhealthy.set(resource, un);
    this.healthy.set(resource, new Set());
    ep.stoppedAt = this.clock.now();
  }

  /** A restored checkpoint's resource: registered, no healthy devices, stopped now (newStoppedEndpointImpl). */
  restored(resource: string): void {
    this.healthy.set(resource, new Set());
    this.unhealthy.set(resource, new Set());
    this.endpoints.set(resource, { stoppedAt: this.clock.now() });
  }

  /** genericDeviceUpdateCallback: the plugin's full device list replaces the resource's sets. */
  update(resource: string, devices: readonly PluginDevice[]): { total: number; healthy: number } {
    const h = new Set<string>();
    const u = new Set<string>();
    const all = new Map<string, PluginDevice>();
    for (const d of devices) {
      all.set(d.id, d);
      (d.healthy ? h : u).add(d.id);
    }
    this.healthy.set(resource, h);
    this.unhealthy.set(resource, u);
    this.all.set(resource, all);
    return { total: devices.length, healthy: h.size };
  }

  isConnected(resource: string): boolean {
    const ep = this.endpoints.get(resource);
    return ep !== undefined && ep.stoppedAt === undefined;
  }

  /** isDevicePluginResource: registered, or still held by a container. */
  isDeviceResource(resource: string): boolean {
    return this.healthy.has(resource) || this.pods.devices().has(resource);
  }

  healthyIds(resource: string): string[] {
    return [...(this.healthy.get(resource) ?? [])].sort();
  }

  /** Every registered resource's devices (health, NUMA nodes) and whether its plugin is connected. */
  inventory(): Array<{ resource: string; connected: boolean; devices: PluginDevice[] }> {
    return [...new Set([...this.healthy.keys(), ...this.unhealthy.keys()])].sort().map((resource) => {
      const healthy = this.healthy.get(resource) ?? new Set<string>();
      const ids = [...new Set([...healthy, ...(this.unhealthy.get(resource) ?? [])])].sort();
      const devices = ids.map((id) => ({ id, healthy: healthy.has(id), numaNodes: this.all.get(resource)?.get(id)?.numaNodes ?? [] }));
      return { resource, connected: this.isConnected(resource), devices };
    });
  }

  /** The kubelet's registeredDevices for the checkpoint: healthy ids per resource. */
  registered(): Record<string, string[]> {
    return Object.fromEntries([...this.healthy].map(([r, s]) => [r, [...s].sort()]));
  }

  /** GetCapacity: capacity counts all devices, allocatable the healthy ones; expired endpoints are deleted. */
  capacity(): DeviceCapacity {
    const out: DeviceCapacity = { capacity: {}, allocatable: {}, removed: [] };
    const now = this.clock.now();
    for (const r of new Set([...this.healthy.keys(), ...this.unhealthy.keys()])) {
      const ep = this.endpoints.get(r);
      if (!ep || (ep.stoppedAt !== undefined && now - ep.stoppedAt > this.graceMs)) {
        this.endpoints.delete(r);
        this.healthy.delete(r);
        this.unhealthy.delete(r);
        this.all.delete(r);
        out.removed.push(r);
        continue;
      }
      const h = this.healthy.get(r)?.size ?? 0;
      out.capacity[r] = h + (this.unhealthy.get(r)?.size ?? 0);
      out.allocatable[r] = h;
    }
    out.removed.sort();
    return out;
  }

  /** UpdateAllocatedDevices: drops the devices of pods that are no longer active. */
  removeStale(activeUids: ReadonlySet<string>): string[] {
    const gone = this.pods.podUids().filter((u) => !activeUids.has(u));
    for (const u of gone) this.pods.deletePod(u);
    return gone;
  }

  /**
   * devicesToAllocate, then the reservation recorded in podDevices (no Allocate response yet). `reusable`:
   * devices the pod's init containers hold, taken first. An existing entry of the same size is kept.
   */
  reserve(podUid: string, container: string, resource: string, required: number, reusable: ReadonlySet<string> = new Set()): ReserveResult {
    const existing = this.pods.get(podUid, container, resource);
    if (existing) {
      const have = idsOf(existing).length;
      if (have !== required) return { ok: false, message: `pod "${podUid}" container "${container}" changed request for resource "${resource}" from ${have} to ${required}` };
      return { ok: true };
    }
    const healthy = this.healthy.get(resource);
    if (!healthy) return { ok: false, message: `cannot allocate unregistered device ${resource}` };
    if (healthy.size === 0) return { ok: false, message: `no healthy devices present; cannot allocate unhealthy devices ${resource}` };
    const picked: string[] = [];
    for (const id of [...reusable].sort()) if (picked.length < required) picked.push(id);
    if (picked.length < required) {
      const inUse = this.pods.devices().get(resource) ?? new Set<string>();
      const available = this.alignedFirst(resource, [...healthy].filter((id) => !inUse.has(id) && !picked.includes(id)).sort(), this.preferredNuma?.(podUid, container));
      const needed = required - picked.length;
      if (available.length < needed) {
        return { ok: false, message: `requested number of devices unavailable for ${resource}. Requested: ${needed}, Available: ${available.length}` };
      }
      picked.push(...available.slice(0, needed));
    }
    const entry: ContainerDevices = { podUid, containerName: container, resource, deviceIds: this.byNuma(resource, picked) };
    this.pods.insert(entry);
    return { ok: true, entry };
  }

  /** Free healthy devices of the resource (plus `also`), for GetPreferredAllocation's available list. */
  availableWith(resource: string, also: readonly string[]): string[] {
    const inUse = this.pods.devices().get(resource) ?? new Set<string>();
    return [...new Set([...also, ...[...(this.healthy.get(resource) ?? [])].filter((id) => !inUse.has(id))])].sort();
  }

  /**
   * GetPreferredAllocation's lists for a container holding `mine`: every free healthy device; under a NUMA affinity
   * (the topology manager's hint) as devicesToAllocate: only the aligned ones when they are more than needed, else all
   * with the aligned ones as mustInclude.
   */
  preferredRequest(resource: string, mine: readonly string[], numa: readonly number[] | undefined): { available: string[]; mustInclude: string[] } {
    const available = this.availableWith(resource, mine);
    if (!numa || numa.length === 0) return { available, mustInclude: [] };
    const aligned = available.filter((id) => (this.all.get(resource)?.get(id)?.numaNodes ?? []).some((n) => numa.includes(n)));
    return aligned.length > mine.length ? { available: aligned, mustInclude: [] } : { available, mustInclude: aligned };
  }

  /** checkpoint.DevicesPerNUMA: devices keyed by each NUMA node of their topology, else -1. */
  byNuma(resource: string, ids: readonly string[]): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const id of ids) {
      const nodes = this.all.get(resource)?.get(id)?.numaNodes ?? [];
      for (const n of nodes.length > 0 ? nodes : [NODE_WITHOUT_TOPOLOGY]) (out[String(n)] ??= []).push(id);
    }
    return out;
  }

  /** The topology manager's NUMA affinity for a container (set when a topology manager is wired). */
  preferredNuma: ((podUid: string, container: string) => readonly number[] | undefined) | undefined;

  /** The resource's devices, healthy or not, with their NUMA nodes (for topology hints). */
  allDevices(resource: string): PluginDevice[] {
    return [...(this.all.get(resource)?.values() ?? [])];
  }

  /** devicesToAllocate's order under a NUMA affinity: devices on it, then devices without topology, then others. */
  private alignedFirst(resource: string, ids: string[], numa: readonly number[] | undefined): string[] {
    if (!numa || numa.length === 0) return ids;
    const rank = (id: string) => {
      const nodes = this.all.get(resource)?.get(id)?.numaNodes ?? [];
      if (nodes.some((n) => numa.includes(n))) return 0;
      return nodes.length === 0 ? 1 : 2;
    };
    return ids.map((id, i) => ({ id, i, r: rank(id) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.id);
  }
}
