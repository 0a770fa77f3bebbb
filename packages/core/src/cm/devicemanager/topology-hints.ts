/**
 * The device manager as a topology manager hint provider (devicemanager/topology_hints.go v1.28): NUMA hints
 * for each device resource whose plugin reports topology (generateDeviceTopologyHints), and Allocate per
 * container through the device manager's admission, with the devices on the container's NUMA affinity first.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { BitMask, iterateBitMasks } from '../topologymanager/bitmask.ts';
import { AdmissionError, type HintProvider, type Store, type TopologyHint, type TopologyHints } from '../topologymanager/types.ts';
import { deviceRequests, type DeviceManager } from './manager.ts';
import { idsOf } from './pod-devices.ts';

export interface DeviceHintOptions {
  /** The machine's NUMA node ids. */
  numaNodes: readonly number[];
  /** The topology manager (the merged hint of a container, read at allocation). */
  affinity: Store;
  /** Pods admitted and active (the devices of other pods stay allocated). */
  activePods: () => V1Pod[];
}

function containersOf(pod: V1Pod): Array<{ c: V1Container; init: boolean }> {
  return [...(pod.spec?.initContainers ?? []).map((c) => ({ c, init: c.restartPolicy !== 'Always' })), ...(pod.spec?.containers ?? []).map((c) => ({ c, init: false }))];
}

export class DeviceHintProvider implements HintProvider {
  constructor(
    private readonly dm: DeviceManager,
    private readonly opts: DeviceHintOptions,
  ) {
    dm.state.preferredNuma = (podUid, container) => opts.affinity.getAffinity(podUid, container).numaNodeAffinity?.getBits();
  }

  private isDevice = (r: string): boolean => this.dm.state.isDeviceResource(r);

  getTopologyHints(pod: V1Pod, container: V1Container): TopologyHints {
    const uid = pod.metadata?.uid ?? '';
    const reusable = this.initDevices(pod, container);
    return this.hintsFor(deviceRequests(container, this.isDevice), (resource) => {
      const e = this.dm.state.pods.get(uid, container.name, resource);
      return { allocated: e ? idsOf(e) : [], reusable: reusable.get(resource) ?? [] };
    });
  }

  /** Pod scope: per resource the larger of the biggest init container and the sum of the long-running ones. */
  getPodTopologyHints(pod: V1Pod): TopologyHints {
    const uid = pod.metadata?.uid ?? '';
    const init = new Map<string, number>();
    const long = new Map<string, number>();
    for (const { c, init: isInit } of containersOf(pod)) {
      for (const [r, n] of deviceRequests(c, this.isDevice)) {
        if (isInit) init.set(r, Math.max(init.get(r) ?? 0, n));
        else long.set(r, (long.get(r) ?? 0) + n);
      }
    }
    const requests: Array<[string, number]> = [...new Set([...init.keys(), ...long.keys()])].sort().map((r) => [r, Math.max(init.get(r) ?? 0, long.get(r) ?? 0)]);
    return this.hintsFor(requests, (resource) => {
      const held = new Set<string>();
      for (const { c } of containersOf(pod)) {
        const e = this.dm.state.pods.get(uid, c.name, resource);
        if (e) for (const id of idsOf(e)) held.add(id);
      }
      return { allocated: [...held], reusable: [] };
    });
  }

  /**
   * Allocate: the device manager's admission for the pod's containers up to this one (earlier ones keep their
   * devices), so each container's devices are chosen after its own merged hint is stored.
   */
  allocate(pod: V1Pod, container: V1Container): void {
    const all = containersOf(pod);
    const upTo = all.findIndex(({ c }) => c.name === container.name);
    const seen = new Set(all.slice(0, upTo + 1).map(({ c }) => c.name));
    const spec = pod.spec ?? { containers: [] };
    const partial: V1Pod = { ...pod, spec: { ...spec, initContainers: (spec.initContainers ?? []).filter((c) => seen.has(c.name)), containers: spec.containers.filter((c) => seen.has(c.name)) } };
    const uid = pod.metadata?.uid ?? '';
    const r = this.dm.admit(partial, this.opts.activePods().filter((p) => (p.metadata?.uid ?? '') !== uid));
    if (!r.admit) throw new AdmissionError(r.reason, r.message);
  }

  /** Devices the pod's init containers (not restartable) already hold, before `container`: reusable by it. */
  private initDevices(pod: V1Pod, container: V1Container): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const { c, init } of containersOf(pod)) {
      if (c.name === container.name) break;
      if (!init) continue;
      for (const e of this.dm.state.pods.container(pod.metadata?.uid ?? '', c.name)) out.set(e.resource, [...new Set([...(out.get(e.resource) ?? []), ...idsOf(e)])]);
    }
    return out;
  }

  private hintsFor(requests: ReadonlyArray<[string, number]>, held: (resource: string) => { allocated: string[]; reusable: string[] }): TopologyHints {
    if (requests.length === 0) return null;
    const hints: Record<string, TopologyHint[] | null> = {};
    for (const [resource, n] of requests) {
      if (!this.dm.state.allDevices(resource).some((d) => d.numaNodes.length > 0)) {
        hints[resource] = null;
        continue;
      }
      const { allocated, reusable } = held(resource);
      if (allocated.length > 0) {
        hints[resource] = allocated.length === n ? this.generate(resource, allocated, [], n) : [];
        continue;
      }
      const available = this.dm.state.availableWith(resource, []);
      if (new Set([...available, ...reusable]).size < n) {
        hints[resource] = [];
        continue;
      }
      hints[resource] = this.generate(resource, available, reusable, n);
    }
    return Object.keys(hints).length > 0 ? hints : null;
  }

  /** generateDeviceTopologyHints: every NUMA mask with enough devices; preferred = the fewest nodes that could ever fit. */
  private generate(resource: string, available: readonly string[], reusable: readonly string[], request: number): TopologyHint[] {
    const devices = new Map(this.dm.state.allDevices(resource).map((d) => [d.id, d.numaNodes]));
    let minAffinitySize = this.opts.numaNodes.length;
    const hints: TopologyHint[] = [];
    iterateBitMasks(this.opts.numaNodes, (mask: BitMask) => {
      let inMask = 0;
      for (const nodes of devices.values()) if (mask.anySet(nodes)) inMask++;
      if (inMask >= request && mask.count() < minAffinitySize) minAffinitySize = mask.count();
      let matching = 0;
      for (const id of reusable) {
        const nodes = devices.get(id);
        if (!nodes || nodes.length === 0) continue;
        if (!mask.anySet(nodes)) return;
        matching++;
      }
      for (const id of available) if (mask.anySet(devices.get(id) ?? [])) matching++;
      if (matching < request) return;
      hints.push({ numaNodeAffinity: mask, preferred: false });
    });
    for (const h of hints) h.preferred = h.numaNodeAffinity!.count() === minAffinitySize;
    return hints;
  }
}
