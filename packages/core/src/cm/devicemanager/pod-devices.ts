/**
 * The kubelet's podDevices: pod uid → container → resource → device ids (per NUMA node) and the plugin's
 * Allocate response. The allocated device set of a resource is derived from it (m.allocatedDevices =
 * m.podDevices.devices()), so a reservation, an allocation and a restored checkpoint entry all count.
 */
import type { AllocResponse, ContainerDevices, DeviceRunOptions } from './types.ts';
import { byCodeUnit } from '../../util/compare.ts';

export class PodDevices {
  private readonly byPod = new Map<string, Map<string, Map<string, ContainerDevices>>>();

  get(podUid: string, container: string, resource: string): ContainerDevices | undefined {
    return this.byPod.get(podUid)?.get(container)?.get(resource);
  }

  insert(e: ContainerDevices): void {
    let pod = this.byPod.get(e.podUid);
    if (!pod) this.byPod.set(e.podUid, (pod = new Map()));
    let c = pod.get(e.containerName);
    if (!c) pod.set(e.containerName, (c = new Map()));
    c.set(e.resource, e);
  }

  setResponse(podUid: string, container: string, resource: string, response: AllocResponse): void {
    const e = this.get(podUid, container, resource);
    if (e) e.response = response;
  }

  /** The container's entries, one per resource. */
  container(podUid: string, container: string): ContainerDevices[] {
    return [...(this.byPod.get(podUid)?.get(container)?.values() ?? [])];
  }

  podUids(): string[] {
    return [...this.byPod.keys()];
  }

  deletePod(podUid: string): void {
    this.byPod.delete(podUid);
  }

  entries(): ContainerDevices[] {
    return [...this.byPod.values()].flatMap((p) => [...p.values()].flatMap((c) => [...c.values()]));
  }

  /** resource → device ids held by any container. */
  devices(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const e of this.entries()) {
      let s = out.get(e.resource);
      if (!s) out.set(e.resource, (s = new Set()));
      for (const ids of Object.values(e.deviceIds)) for (const id of ids) s.add(id);
    }
    return out;
  }
}

export function idsOf(e: ContainerDevices): string[] {
  return [...new Set(Object.values(e.deviceIds).flat())].sort();
}

/**
 * deviceRunContainerOptions: the container's Allocate responses merged, resources in name order; the first
 * env / device container path / mount container path / annotation wins, as the kubelet skips duplicates.
 */
export function runOptionsOf(entries: readonly ContainerDevices[]): DeviceRunOptions {
  const opts: DeviceRunOptions = { envs: [], mounts: [], devices: [], annotations: {}, cdiDevices: [] };
  const envs = new Set<string>();
  const devs = new Set<string>();
  const mounts = new Set<string>();
  const cdi = new Set<string>();
  for (const e of [...entries].sort((a, b) => byCodeUnit(a.resource, b.resource))) {
    const r = e.response;
    if (!r) continue;
    for (const [key, value] of Object.entries(r.envs ?? {})) {
      if (envs.has(key)) continue;
      envs.add(key);
      opts.envs.push({ key, value });
    }
    for (const d of r.devices ?? []) {
      if (devs.has(d.containerPath)) continue;
      devs.add(d.containerPath);
      opts.devices.push({ containerPath: d.containerPath, hostPath: d.hostPath, permissions: d.permissions });
    }
    for (const m of r.mounts ?? []) {
      if (mounts.has(m.containerPath)) continue;
      mounts.add(m.containerPath);
      opts.mounts.push({ containerPath: m.containerPath, hostPath: m.hostPath, readonly: m.readOnly });
    }
    for (const [k, v] of Object.entries(r.annotations ?? {})) if (!(k in opts.annotations)) opts.annotations[k] = v;
    for (const d of r.cdiDevices ?? []) {
      if (cdi.has(d.name)) continue;
      cdi.add(d.name);
      opts.cdiDevices.push(d.name);
    }
  }
  return opts;
}
