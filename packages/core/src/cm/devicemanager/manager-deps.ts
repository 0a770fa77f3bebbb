/**
 * What the device manager (manager.ts) is built with: its clock, logger and device plugin dir, the pod sources'
 * readiness and pods (which allocations stay), the node status resync hook, the endpoint grace period, its metrics,
 * the plugin client, and the event bus publisher (DeviceEventInput).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from '../../util/logger.ts';
import type { DeviceBusEvent } from '../../events/types.ts';
import type { ConnectEndpoint } from './endpoint.ts';

export interface DeviceManagerDeps {
  clock: { now(): number };
  logger: Logger;
  /** `<root-dir>/device-plugins`. */
  dir: string;
  /** All pod sources seen (UpdateAllocatedDevices frees nothing before, so a restart keeps every allocation). */
  sourcesReady?: () => boolean;
  /**
   * The pods the config sources hold, with the kubelet's latest status: one not yet terminal keeps its devices
   * even before it is admitted again (after a restart the pods are re-admitted one by one; an earlier one must
   * not free a later one's devices).
   */
  sourcePods?: () => V1Pod[];
  /** Called when a plugin's devices, health or connection change (node status resync). */
  onChange?: () => void;
  /** endpointStopGracePeriod (5 min); tests inject a short one. */
  graceMs?: number;
  /** kubelet_device_plugin_registration_total / kubelet_device_plugin_alloc_duration_seconds. */
  metrics?: DeviceManagerMetrics;
  /** The plugin client (default: gRPC with the kubelet's timeouts; tests shorten them). */
  connect?: ConnectEndpoint;
  /** Registrations, disconnections, device updates and allocation failures, for the event bus. */
  publish?: (e: DeviceEventInput) => void;
}

export type DeviceEventInput = Omit<DeviceBusEvent, 'type' | 'seq' | 'time'>;

export interface DeviceManagerMetrics {
  devicePluginRegistrations: { inc(labels: { resource_name: string }): void };
  devicePluginAllocDuration: { observe(labels: { resource_name: string }, seconds: number): void };
}
