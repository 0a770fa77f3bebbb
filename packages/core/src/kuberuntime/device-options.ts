/**
 * A container's device plugin allocations in its CRI config, as the kubelet's GenerateRunContainerOptions
 * and generateContainerConfig place them: the allocation's envs before the container's own (a pod env of
 * the same name wins), its mounts before the volume mounts, its devices as CRI Devices, its annotations
 * under the kubelet's own (which win), and its CDI device names passed through.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { ContainerConfig } from '../cri/types.ts';
import type { DeviceRunOptions } from '../cm/devicemanager/types.ts';

/** The device manager's GetDeviceRunContainerOptions (Allocate / PreStartContainer when still due). */
export type ContainerDevices = (pod: V1Pod, c: V1Container) => Promise<{ ok: true; opts: DeviceRunOptions } | { ok: false; message: string }>;

export function applyDeviceOptions(config: ContainerConfig, opts: DeviceRunOptions): void {
  if (opts.envs.length > 0) config.envs = [...opts.envs.map((e) => ({ key: e.key, value: Buffer.from(e.value, 'utf8') })), ...(config.envs ?? [])];
  if (opts.mounts.length > 0) {
    config.mounts = [...opts.mounts.map((m) => ({ containerPath: m.containerPath, hostPath: m.hostPath, readonly: m.readonly })), ...(config.mounts ?? [])];
  }
  if (opts.devices.length > 0) config.devices = [...(config.devices ?? []), ...opts.devices];
  if (Object.keys(opts.annotations).length > 0) config.annotations = { ...opts.annotations, ...(config.annotations ?? {}) };
  if (opts.cdiDevices.length > 0) config.CDIDevices = [...(config.CDIDevices ?? []), ...opts.cdiDevices.map((name) => ({ name }))];
}
