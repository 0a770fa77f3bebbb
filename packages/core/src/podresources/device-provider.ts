/**
 * The device manager as the pod resources API's DevicesProvider (cm's GetDevices / GetAllocatableDevices via
 * containerDevicesFromResourceDeviceInstances, v1.28): one ContainerDevices per device and NUMA node, with no
 * topology for a device whose plugin reported none; sorted (the kubelet's order is a Go map's).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { DeviceManager } from '../cm/devicemanager/manager.ts';
import { NODE_WITHOUT_TOPOLOGY } from '../cm/devicemanager/types.ts';
import type { ContainerDevices, DevicesProvider } from './types.ts';
import { byCodeUnit } from '../util/compare.ts';

/** resource → NUMA node (as the checkpoint keys it, "-1": none) → device ids, expanded per device and node. */
export function containerDevicesOf(byResource: ReadonlyArray<[string, Record<string, string[]>]>): ContainerDevices[] {
  const out: Array<ContainerDevices & { numa: number }> = [];
  for (const [resourceName, byNuma] of byResource) {
    for (const [numaKey, ids] of Object.entries(byNuma)) {
      const numa = Number(numaKey);
      for (const id of ids) out.push({ resourceName, deviceIds: [id], numa, ...(numa === NODE_WITHOUT_TOPOLOGY ? {} : { topology: { nodes: [{ ID: numa }] } }) });
    }
  }
  out.sort((a, b) => byCodeUnit(a.resourceName, b.resourceName) || byCodeUnit(a.deviceIds[0]!, b.deviceIds[0]!) || a.numa - b.numa);
  return out.map(({ numa: _, ...d }) => d);
}

export function deviceManagerProvider(dm: DeviceManager, activePods: () => V1Pod[]): DevicesProvider {
  return {
    updateAllocatedDevices: () => dm.updateAllocatedDevices(activePods()),
    getDevices: (podUid, containerName) => containerDevicesOf(dm.state.pods.container(podUid, containerName).map((e) => [e.resource, e.deviceIds])),
    getAllocatableDevices: () => containerDevicesOf(Object.entries(dm.state.registered()).map(([r, ids]) => [r, dm.state.byNuma(r, ids)])),
  };
}
