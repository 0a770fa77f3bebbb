/**
 * The kubelet's device manager on a real host (deps.hostFs): `<root-dir>/device-plugins`, its admit
 * handler placed before the predicates (the kubelet registers GetAllocateResourcesPodAdmitHandler first),
 * its container allocations for the runtime, and its capacity for the node summary and status.
 */
import path from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { DeviceManager, type DeviceManagerMetrics } from '../cm/devicemanager/manager.ts';
import { DEVICE_PLUGINS_DIR } from '../cm/devicemanager/types.ts';
import type { PodAdmitHandler } from '../lifecycle/types.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';

export interface DeviceWiringParts {
  sourcesReady: () => boolean;
  sourcePods: () => V1Pod[];
  metrics?: DeviceManagerMetrics;
  /** Node status resync (device or health changes). */
  onChange: () => void;
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
  });
}

/** The handlers with the device manager's before the predicate handler (or last when there is none). */
export function withDeviceAdmission(handlers: readonly PodAdmitHandler[], devices: DeviceManager | undefined): PodAdmitHandler[] {
  if (!devices) return [...handlers];
  const at = handlers.findIndex((h) => h.name === 'predicate');
  const out = [...handlers];
  out.splice(at < 0 ? out.length : at, 0, devices.admitHandler);
  return out;
}
