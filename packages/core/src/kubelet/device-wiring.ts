/**
 * The kubelet's device manager on a real host (deps.hostFs): `<root-dir>/device-plugins`, its admit
 * handler placed before the predicates (the kubelet registers GetAllocateResourcesPodAdmitHandler first),
 * its container allocations for the runtime, and its capacity for the node summary and status.
 */
import os from 'node:os';
import path from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import type { EventBus } from '../events/types.ts';
import { cpuResourcesView, memoryResourcesView, nodeResourcesView, type CpuSnapshot, type MemorySnapshot, type NodeResourcesApi } from '../cm/resources-view.ts';
import { DeviceManager } from '../cm/devicemanager/manager.ts';
import type { DeviceEventInput, DeviceManagerMetrics } from '../cm/devicemanager/manager-deps.ts';
import { DEVICE_PLUGINS_DIR } from '../cm/devicemanager/types.ts';
import type { PodAdmitHandler } from '../lifecycle/types.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';

export interface DeviceWiringParts {
  sourcesReady: () => boolean;
  sourcePods: () => V1Pod[];
  metrics?: DeviceManagerMetrics;
  /** Node status resync (device or health changes). */
  onChange: () => void;
  /** Registrations, health and allocation failures go on the bus (the lifecycle tail, the Resources page). */
  bus?: Pick<EventBus, 'publish'>;
}

export function buildDeviceManager(deps: KubeletDeps, config: KubeletConfig, parts: DeviceWiringParts): DeviceManager | undefined {
  if (!deps.hostFs) return undefined;
  return new DeviceManager({
    clock: deps.clock,
    logger: deps.logger.child('devicemanager'),
    dir: path.join(config.rootDir, DEVICE_PLUGINS_DIR),
    sourcesReady: parts.sourcesReady,
    sourcePods: parts.sourcePods,
    ...(parts.metrics ? { metrics: parts.metrics } : {}),
    onChange: parts.onChange,
    ...(parts.bus ? { publish: (e: DeviceEventInput) => parts.bus!.publish({ type: 'device', ...e }) } : {}),
  });
}

/** The Resources page's view: the CPU manager's pool and assignments, the device manager's devices with their holders. */
export function nodeResourcesApi(sources: ResourcesApiSources): NodeResourcesApi {
  const podRef = (uid: string) => {
    const p = sources.pod(uid);
    return p ? { namespace: p.metadata?.namespace ?? 'default', name: p.metadata?.name ?? '', uid } : undefined;
  };
  // Read once, as cm-wiring's core count: os.cpus() parses /proc/cpuinfo and /proc/stat on every call.
  const onlineCpus = os.cpus().length;
  return {
    view: () => {
      const dm = sources.devices();
      const cpu = sources.cpu?.();
      const memory = sources.memory?.();
      return nodeResourcesView({
        ...(dm ? { devices: dm.state } : {}),
        ...(cpu ? { cpu: () => cpuResourcesView(cpu.snapshot(), onlineCpus, podRef) } : {}),
        ...(memory ? { memory: () => memoryResourcesView(memory.snapshot(), podRef) } : {}),
        pod: podRef,
        onlineCpus,
      });
    },
  };
}

export interface ResourcesApiSources {
  devices: () => DeviceManager | undefined;
  /** The CPU manager (absent: policy none). */
  cpu?: () => { snapshot(): CpuSnapshot } | undefined;
  /** The memory manager (absent: policy None). */
  memory?: () => { snapshot(): MemorySnapshot } | undefined;
  pod: (uid: string) => V1Pod | undefined;
}

/** The handlers with the device manager's before the predicate handler (or last when there is none). */
export function withDeviceAdmission(handlers: readonly PodAdmitHandler[], devices: DeviceManager | undefined): PodAdmitHandler[] {
  if (!devices) return [...handlers];
  const at = handlers.findIndex((h) => h.name === 'predicate');
  const out = [...handlers];
  out.splice(at < 0 ? out.length : at, 0, devices.admitHandler);
  return out;
}
