/**
 * The node's local resource APIs on a real host (deps.hostFs): the plugin manager watching
 * `<root-dir>/plugins_registry` with the device manager as its DevicePlugin handler (the kubelet also drops a
 * DEPRECATION file into the device plugin dir then), and the pod resources API on
 * `<root-dir>/pod-resources/kubelet.sock` fed by the pod manager, the device manager and the CPU / memory
 * providers (empty until those managers provide them). A failure to start either is logged; the agent runs on.
 * Registrations the plugin manager refuses reach the bus (the lifecycle tail) as `device` registrationFailed events.
 */
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import type { V1Pod } from '@kubernetes/client-node';
import type { DeviceManager } from '../cm/devicemanager/manager.ts';
import type { CpuManager } from '../cm/cpumanager/cpu-manager.ts';
import { devicePluginHandler } from '../cm/devicemanager/plugin-handler.ts';
import { DEVICE_PLUGINS_DIR } from '../cm/devicemanager/types.ts';
import { PluginManager, type PluginManagerMetrics } from '../pluginmanager/manager.ts';
import { DEVICE_PLUGIN, PLUGINS_REGISTRY_DIR } from '../pluginmanager/types.ts';
import { PodResourcesLister } from '../podresources/lister.ts';
import { servePodResources, type PodResourcesServer } from '../podresources/server.ts';
import { deviceManagerProvider } from '../podresources/device-provider.ts';
import { NO_CPUS, NO_DEVICES, NO_MEMORY, POD_RESOURCES_DIR, POD_RESOURCES_SOCKET, type CPUsProvider, type MemoryProvider, type PodResourcesMetrics, type PodsProvider } from '../podresources/types.ts';
import type { EventBus } from '../events/types.ts';
import type { PluginRefusal } from '../pluginmanager/types.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';

/** `<root-dir>/plugins`: where CSI and other plugins keep their service sockets (kubelet's getPluginsDir). */
const PLUGINS_DIR = 'plugins';

export interface ResourceApiParts {
  devices: DeviceManager | undefined;
  pods: PodsProvider;
  activePods: () => V1Pod[];
  /** The CPU manager's exclusive CPUs (none until it provides them). */
  cpus?: () => CPUsProvider | undefined;
  /** The memory manager's blocks (none until it provides them). */
  memory?: () => MemoryProvider | undefined;
  metrics?: PodResourcesMetrics & PluginManagerMetrics;
  /** Registrations the plugin manager refuses go on the bus as the device manager's refusals do. */
  bus?: Pick<EventBus, 'publish'>;
}

/** A plugin manager refusal as a `device` registrationFailed event: the plugin's name, or its socket when GetInfo did not answer. */
export function refusalEvent(r: PluginRefusal): { type: 'device'; resource: string; change: 'registrationFailed'; message: string } {
  return { type: 'device', resource: r.name || r.socketPath, change: 'registrationFailed', message: r.message };
}

export class ResourceApis {
  readonly plugins: PluginManager;
  readonly lister: PodResourcesLister;
  private server: PodResourcesServer | undefined;

  constructor(
    private readonly deps: KubeletDeps,
    private readonly config: KubeletConfig,
    private readonly parts: ResourceApiParts,
  ) {
    const root = config.rootDir;
    const registry = path.join(root, PLUGINS_REGISTRY_DIR);
    const bus = parts.bus;
    this.plugins = new PluginManager({
      clock: deps.clock,
      logger: deps.logger.child('pluginmanager'),
      dir: registry,
      ...(parts.metrics ? { metrics: parts.metrics } : {}),
      ...(bus ? { onRefused: (r: PluginRefusal) => bus.publish(refusalEvent(r)) } : {}),
    });
    if (parts.devices) {
      const allowed = [registry, path.join(root, PLUGINS_DIR), path.join(root, DEVICE_PLUGINS_DIR)];
      this.plugins.addHandler(DEVICE_PLUGIN, devicePluginHandler(parts.devices, registry, allowed));
    }
    const devices = parts.devices ? deviceManagerProvider(parts.devices, parts.activePods) : NO_DEVICES;
    // Asked on each call: the CPU and memory managers may come up after this.
    const cpu = () => parts.cpus?.() ?? NO_CPUS;
    const mem = () => parts.memory?.() ?? NO_MEMORY;
    const cpus: CPUsProvider = { getCPUs: (uid, c) => cpu().getCPUs(uid, c), getAllocatableCPUs: () => cpu().getAllocatableCPUs() };
    const memory: MemoryProvider = { getMemory: (uid, c) => mem().getMemory(uid, c), getAllocatableMemory: () => mem().getAllocatableMemory() };
    this.lister = new PodResourcesLister(
      { pods: parts.pods, devices, cpus, memory },
      { getEnabled: config.featureGates?.KubeletPodResourcesGet ?? false, ...(parts.metrics ? { metrics: parts.metrics } : {}) },
    );
  }

  get podResourcesSocket(): string {
    return path.join(this.config.rootDir, POD_RESOURCES_DIR, POD_RESOURCES_SOCKET);
  }

  async start(): Promise<void> {
    const { logger, clock } = this.deps;
    if (this.parts.devices) {
      // GetPluginHandler: the kubelet marks the device plugin dir's Register path as deprecated.
      await writeFile(path.join(this.config.rootDir, DEVICE_PLUGINS_DIR, 'DEPRECATION'), '').catch((err: unknown) => logger.warn('Failed to create deprecation file at socket dir', { err: String(err) }));
    }
    await this.plugins.start().catch((err: unknown) => logger.error('plugin manager failed to start', { err: String(err) }));
    this.server = await servePodResources(this.podResourcesSocket, this.lister, { clock, logger: logger.child('podresources') }).catch((err: unknown) => {
      logger.error('Failed to create listener for podResources endpoint', { err: String(err) });
      return undefined;
    });
  }

  async stop(): Promise<void> {
    await this.plugins.stop();
    await this.server?.close();
  }
}

/** The CPU manager as the pod resources API's CPUsProvider (GetExclusiveCPUs / GetAllocatableCPUs). */
export function cpuManagerProvider(cm: Pick<CpuManager, 'getExclusiveCPUs' | 'getAllocatableCPUs'>): CPUsProvider {
  return { getCPUs: (uid, c) => cm.getExclusiveCPUs(uid, c).list(), getAllocatableCPUs: () => cm.getAllocatableCPUs().list() };
}

export function buildResourceApis(deps: KubeletDeps, config: KubeletConfig, parts: ResourceApiParts): ResourceApis | undefined {
  return deps.hostFs ? new ResourceApis(deps, config, parts) : undefined;
}
