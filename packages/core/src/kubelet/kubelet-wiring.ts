/**
 * The Kubelet's parts and how they are wired together (NewMainKubelet): config sources, pod manager, admission,
 * status manager, PLEG, pod workers, the sync loop, the CRI runtime and the node's managers (stats, eviction and GC,
 * volumes, devices, CPU / memory / topology, node shutdown, API-server mode). Kubelet (kubelet.ts) starts and stops
 * them and implements the KubeletApi facade the agent serves.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { EventBus } from '../events/types.ts';
import { InMemoryEventBus } from '../events/bus.ts';
import { KubeletEventRecorder, type EventRecorder } from '../events/recorder.ts';
import { MergedPodConfig } from '../config/pod-config.ts';
import type { PodSource } from '../config/types.ts';
import { BasicPodManager } from '../pod/basic-pod-manager.ts';
import { BasicStatusManager } from '../status/status-manager.ts';
import { admitHandlers, createAdmitter } from '../lifecycle/admit.ts';
import type { AdmitNode } from '../lifecycle/types.ts';
import { StatusCache } from '../container/cache.ts';
import type { GenericPleg } from '../pleg/generic-pleg.ts';
import type { EventedPleg } from '../pleg/evented-pleg.ts';
import { buildPleg } from './pleg-factory.ts';
import { buildPodSources } from './pod-sources.ts';
import { admitNodeOf, downwardAllocatableOf } from './admit-node.ts';
import type { NodeAllocatable } from '../volume/downward-api.ts';
import type { KubeRuntimeManager } from '../kuberuntime/runtime-manager.ts';
import { buildRuntimeManager, nodeHostIPs } from './runtime-factory.ts';
import { buildVolumeWiring, type VolumeWiring } from './volume-wiring.ts';
import type { EventSink } from '../kuberuntime/types.ts';
import { instrumentCri } from '../kuberuntime/instrumented-cri.ts';
import { podRef } from '../events/recorder.ts';
import { PodWorkers } from './pod-workers.ts';
import { ActivePods } from './active-pods.ts';
import { PodHandlers } from './pod-handlers.ts';
import { SyncLoop } from './sync-loop.ts';
import { RuntimeState } from './runtime-state.ts';
import { PodCidrUpdater } from './pod-cidr.ts';
import { ReasonCache } from './reason-cache.ts';
import { KubeletProbes } from './probes.ts';
import { ActiveDeadlineHandler } from './active-deadline.ts';
import type { NodeShutdownManager } from './node-shutdown.ts';
import { buildNodeShutdown } from './node-shutdown-wiring.ts';
import { buildNodeStats } from './node-stats-factory.ts';
import { buildDeviceManager, nodeResourcesApi, withDeviceAdmission } from './device-wiring.ts';
import type { DeviceManager } from '../cm/devicemanager/manager.ts';
import { buildResourceApis, cpuManagerProvider, type ResourceApis } from './resource-apis.ts';
import { buildCpuManager, cpuLifecycle, withCpuAdmission } from './cpu-wiring.ts';
import type { CpuManager } from '../cm/cpumanager/cpu-manager.ts';
import { buildResourceTopology, combineLifecycles, memoryLifecycle, memoryProvider, withTopologyAdmission, type ResourceTopology } from './topology-wiring.ts';
import type { NodeStats } from './stats-wiring.ts';
import { EvictionWiring } from './eviction-wiring.ts';
import { nodeGcFs } from './gc-fs.ts';
import { nodeLogRotationFs } from './log-rotation-fs.ts';
import { ContainerLogManager } from '../kuberuntime/logs/log-rotation.ts';
import { buildApiServerWiring, type ApiServerWiring } from './apiserver-wiring.ts';
import { DEFAULT_SYNC_FREQUENCY_MS, type KubeletConfig, type KubeletDeps } from './config.ts';
import { RuntimeCache } from '../container/runtime-cache.ts';
import type { NodeSummary } from './types.ts';
import { readySandboxIps } from '../container/types.ts';

export abstract class KubeletWiring {
  readonly events: EventBus;
  readonly recorder: EventRecorder;
  readonly podConfig: MergedPodConfig;
  readonly podManager = new BasicPodManager();
  readonly statusManager: BasicStatusManager;
  readonly cache = new StatusCache();
  readonly pleg: GenericPleg | EventedPleg;
  readonly runtime: KubeRuntimeManager;
  /** Running pods as last listed: housekeeping lists afresh, the volume orphan scan takes a list ≤ 3 s old. */
  private readonly runtimeCache: RuntimeCache;
  /** Volume manager + configMap / secret / token managers (on a real host: deps.hostFs). */
  readonly volumes: VolumeWiring | undefined;
  readonly runtimeState: RuntimeState;
  /** podCIDR / --pod-cidr sent to the runtime (UpdateRuntimeConfig). */
  readonly podCidr: PodCidrUpdater;
  readonly workers: PodWorkers;
  /** The kubelet's active pods (GetActivePods), by the pod workers' word. */
  readonly activePods = new ActivePods({ podManager: this.podManager, podState: () => this.workers, podStatus: (uid) => this.statusManager.getPodStatus(uid) });
  readonly syncLoop: SyncLoop;
  readonly probes: KubeletProbes;
  /** Container manager, stats, metrics, OOM watcher (when deps.hostFs is given). */
  readonly stats: NodeStats | undefined;
  /** API-server mode (deps.apiClient + config.apiServer): node, lease, API pod source, status, mirrors, events. */
  readonly api: ApiServerWiring | undefined;
  /** Eviction manager (EvictionApi) and image / container GC (GcApi): one wiring, two faces. */
  readonly eviction: EvictionWiring;
  readonly gc: EvictionWiring;
  /** Container log rotation (containerLogMaxSize / containerLogMaxFiles); absent unless configured. */
  readonly logManager: ContainerLogManager | undefined;
  /** Device plugins (Registration on <root-dir>/device-plugins/kubelet.sock); on a real host only. */
  readonly devices: DeviceManager | undefined;
  /** CPUs, memory per NUMA node and devices as the resource managers hand them out (tRPC resources.get). */
  readonly resources = nodeResourcesApi({ devices: () => this.devices, cpu: () => this.cpuManager, memory: () => this.topology?.mm, pod: (uid) => this.podManager.getPodByUid(uid) });
  /** Plugin registration (<root-dir>/plugins_registry) and the pod resources API; on a real host only. */
  readonly resourceApis: ResourceApis | undefined;
  /** CPU manager (cpuManagerPolicy none / static, <root-dir>/cpu_manager_state); on a real host only. */
  readonly cpuManager: CpuManager | undefined;
  /** Topology manager (topologyManagerPolicy / Scope) and memory manager (memoryManagerPolicy); on a real host only. */
  readonly topology: ResourceTopology | undefined;
  /** Graceful node shutdown (shutdownGracePeriod...); absent unless configured. */
  readonly nodeShutdown: NodeShutdownManager | undefined;
  private readonly handlers: PodHandlers;
  protected readonly sources: PodSource[];
  protected readonly startTime: string;
  protected stopped = false;

  constructor(
    protected readonly deps: KubeletDeps,
    protected readonly config: KubeletConfig,
  ) {
    const { clock, logger } = deps;
    this.runtimeCache = new RuntimeCache(() => this.runtime.getPods(false), clock);
    this.startTime = new Date(clock.now()).toISOString();
    this.events = deps.bus ?? new InMemoryEventBus({ clock, logger });
    this.recorder = new KubeletEventRecorder({ bus: this.events, clock, logger });
    this.podConfig = new MergedPodConfig({ clock, logger, bus: this.events });
    this.api = buildApiServerWiring(deps, config, {
      bus: this.events,
      recorder: () => this.recorder,
      podConfig: this.podConfig,
      podManager: this.podManager,
      statusManager: () => this.statusManager,
      summary: () => this.node(),
      workers: () => this.workers,
      updatePodCIDR: (cidrs) => this.podCidr.update(cidrs),
    });
    this.statusManager = new BasicStatusManager({ clock, bus: this.events, logger, ...(this.api ? { syncer: this.api.syncer } : {}) });
    const sink: EventSink = (pod, type, reason, message, fieldPath) =>
      void this.recorder.event({ ...podRef(pod), ...(fieldPath ? { fieldPath } : {}) }, type, reason, message);
    this.stats = buildNodeStats(deps, config, { recorder: this.recorder, bus: this.events, podManager: this.podManager, cache: this.cache, isActive: (uid) => this.activePods.has(uid), startTimeMs: clock.now() });
    const runtimeMetrics = deps.metrics ?? this.stats?.kubeletMetrics.runtime;
    const cri = runtimeMetrics ? instrumentCri(deps.cri, runtimeMetrics, clock) : deps.cri;
    this.volumes = buildVolumeWiring(deps, config, { sink, podState: () => this.workers, runningUids: async () => new Set((await this.runtimeCache.getPods()).map((p) => p.uid)), sourcesReady: () => this.podConfig.sourcesReady(), allocatable: () => this.downwardAllocatable() });
    this.probes = new KubeletProbes(
      { cri, clock, logger, recorder: this.recorder, bus: this.events, statusManager: this.statusManager },
      {
        kubeletVersion: config.kubeletVersion,
        processStartTimeSeconds: config.processStartTimeSeconds ?? Math.floor(clock.now() / 1000),
        ...(config.probes ?? {}),
      },
    );
    this.devices = buildDeviceManager(deps, config, { sourcesReady: () => this.podConfig.sourcesReady(), sourcePods: () => this.podConfig.pods().map((p) => this.withStatus(p)), metrics: this.stats?.kubeletMetrics.metrics, onChange: () => void this.api?.nodeStatus.tick(), bus: this.events });
    const devices = this.devices;
    this.resourceApis = buildResourceApis(deps, config, { devices, pods: this.podManager, activePods: () => this.activePods.list(), cpus: () => this.cpuManager && cpuManagerProvider(this.cpuManager), memory: () => this.topology && memoryProvider(this.topology.mm), metrics: this.stats?.kubeletMetrics.metrics, bus: this.events });
    this.topology = buildResourceTopology(deps, config, { activePods: () => this.activePods.list(), sourcesReady: () => this.podConfig.sourcesReady(), metrics: this.stats?.kubeletMetrics.metrics });
    this.cpuManager = buildCpuManager(deps, config, { ...(this.topology ? { affinity: this.topology.tm } : {}), cri, activePods: () => this.activePods.list(), sourcesReady: () => this.podConfig.sourcesReady(), podStatus: (uid) => this.statusManager.getPodStatus(uid), ...(this.stats ? { metrics: this.stats.kubeletMetrics.metrics } : {}) });
    this.topology?.addProviders(devices, this.cpuManager);
    const lifecycle = combineLifecycles([this.cpuManager && cpuLifecycle(this.cpuManager), this.topology && memoryLifecycle(this.topology.mm, this.topology.tm)]);
    this.runtime = buildRuntimeManager(deps, config, {
      ...(lifecycle ? { lifecycle } : {}),
      ...(devices ? { devices: (pod: V1Pod, c: V1Container) => devices.prepareContainer(pod, c) } : {}),
      ...(this.volumes ? { volumes: this.volumes.manager, objects: this.volumes.objects } : {}),
      allocatable: () => this.downwardAllocatable(),
      cri,
      recorder: this.recorder,
      sink,
      podIP: (pod) => this.statusManager.getPodStatus(pod.metadata?.uid ?? '')?.podIP ?? '',
      shownSandboxIps: (uid, id) => readySandboxIps(this.cache.get(uid).status, id) ?? ('heardSandboxIps' in this.pleg ? this.pleg.heardSandboxIps(id) : undefined),
      cgroupParent: (pod) => this.stats?.cm.cgroupParent(pod),
      probeResults: { liveness: this.probes.manager.liveness, startup: this.probes.manager.startup },
      ...(this.api ? { runtimeClasses: this.api.runtimeClasses } : {}),
    });
    this.podCidr = new PodCidrUpdater({ cri, logger: logger.child('kubelet'), bus: this.events });
    this.runtimeState = new RuntimeState(
      { cri, clock, logger: logger.child('runtime-state'), bus: this.events },
      { periodMs: config.runtimeStatusPeriodMs ?? 5_000 },
    );
    this.pleg = buildPleg(deps, config, {
      runtime: this.runtime,
      cache: this.cache,
      bus: this.events,
      ...(this.stats ? { metrics: this.stats.kubeletMetrics.metrics } : {}),
      syncingPod: (uid) => this.workers.isSyncingPod(uid), // the workers are made below, before any event
    });
    this.eviction = this.gc = new EvictionWiring(
      {
        cri,
        clock,
        logger,
        bus: this.events,
        recorder: this.recorder,
        nodeName: config.nodeName,
        podLogsDir: config.podLogsDir,
        podManager: this.podManager,
        statusManager: this.statusManager,
        workers: () => this.workers,
        podState: () => this.workers,
        activePods: () => this.activePods.list(),
        sourcesReady: () => this.podConfig.sourcesReady(),
        summary: () => (this.stats ? this.stats.summary() : Promise.resolve(undefined)),
        ...(deps.hostFs ? { gcFs: nodeGcFs } : {}),
        ...(lifecycle?.postStopContainer ? { postStopContainer: (id: string) => lifecycle.postStopContainer?.(id) } : {}),
        ...(this.stats ? { metrics: this.stats.kubeletMetrics.metrics } : {}),
      },
      { ...(config.stats?.evictionHard ? { evictionHard: config.stats.evictionHard } : {}), ...(config.eviction ?? {}) },
    );
    this.nodeShutdown = buildNodeShutdown(deps, config, { recorder: this.recorder, activePods: () => this.activePods.list(), workers: () => this.workers, syncNodeStatus: () => void this.api?.nodeStatus.tick(), metrics: this.stats?.kubeletMetrics.metrics, bus: this.events });
    this.handlers = new PodHandlers({
      clock,
      logger: logger.child('kubelet'),
      runtime: this.runtime,
      cache: this.cache,
      podManager: this.podManager,
      statusManager: this.statusManager,
      recorder: this.recorder,
      bus: this.events,
      reasons: new ReasonCache(),
      admit: createAdmitter([...withTopologyAdmission(withCpuAdmission(withDeviceAdmission(handlersOrThrow(config.allowedUnsafeSysctls), this.devices), this.cpuManager), this.topology?.tm), ...(this.nodeShutdown ? [this.nodeShutdown.admitHandler] : [])]),
      node: () => this.admitNode(),
      workers: () => this.workers,
      activePods: () => this.activePods.list(),
      sourcesReady: () => this.podConfig.sourcesReady(),
      errorBackOffMs: Math.min(config.crashLoopBackOff.initialMs, 10_000),
      hostIPs: nodeHostIPs(config),
      stopped: () => this.stopped,
      probes: this.probes.manager,
      podSyncHandlers: [new ActiveDeadlineHandler({ clock, statusProvider: this.statusManager, recorder: this.recorder })],
      ...(this.stats ? { podCgroups: this.stats.cm } : {}),
      runningPods: () => this.runtimeCache.forceUpdate(),
    });
    this.workers = new PodWorkers(
      { handlers: this.handlers, cache: this.cache, clock, logger: logger.child('pod-workers'), refresh: (uid, p, after) => this.pleg.updateCache(uid, p.metadata?.name ?? '', p.metadata?.namespace ?? 'default', after) },
      { resyncIntervalMs: config.syncFrequencyMs ?? DEFAULT_SYNC_FREQUENCY_MS, backOffPeriodMs: Math.min(config.crashLoopBackOff.initialMs, 10_000) },
    );
    this.syncLoop = new SyncLoop(
      { handlers: this.handlers, clock, logger: logger.child('sync-loop'), pleg: this.pleg.watch() },
      { syncTickMs: config.syncTickMs ?? 1_000, housekeepingMs: config.housekeepingPeriodMs ?? 2_000 },
    );
    // Liveness / startup failures reach the pod through the sync loop (computePodActions restarts the container),
    // and so does a startup success (the next init container may start after a sidecar).
    this.probes.onProbeSync((update) => this.syncLoop.push({ kind: 'probe', update }));
    this.logManager = config.containerLog ? new ContainerLogManager({ cri, clock, logger: deps.logger.child('container-log-manager'), fs: deps.logRotationFs ?? nodeLogRotationFs }, config.containerLog) : undefined;
    this.sources = buildPodSources(deps, config, { podConfig: this.podConfig, recorder: this.recorder, ...(this.api ? { apiSource: this.api.source } : {}) });
  }

  /** The node as the agent shows it (KubeletApi.node): Kubelet's. */
  abstract node(): NodeSummary;

  protected withStatus(p: V1Pod): V1Pod {
    const status = this.statusManager.getPodStatus(p.metadata?.uid ?? '') ?? p.status ?? { phase: 'Pending' };
    return { ...p, status };
  }

  private downwardAllocatable(): NodeAllocatable {
    return downwardAllocatableOf(this.config, this.api?.nodeStatus.allocatable, this.stats?.cgroups().allocatable);
  }

  private admitNode(): AdmitNode {
    return admitNodeOf(this.config, this.stats?.cgroups().allocatable, this.eviction.pressure());
  }
}

/** The admit handlers; a bad --allowed-unsafe-sysctls entry stops the kubelet as NewAllowlist's error does. */
function handlersOrThrow(allowedUnsafeSysctls: readonly string[] | undefined) {
  const h = admitHandlers(allowedUnsafeSysctls);
  if (!h.ok) throw new Error(h.reason);
  return h.handlers;
}
