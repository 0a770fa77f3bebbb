/**
 * API-server mode (--kubeconfig): the pieces that make the kubelet a cluster node, wired to the kubelet's
 * managers: node registration + status, the node lease, the API pod source, the status syncer (with the
 * deletion handshake), mirror pods for static pods, the Event sink, and the RuntimeClass objects (runtime handlers).
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { ApiClient } from '../apiclient/types.ts';
import type { EventBus, PodRef } from '../events/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { ApiEventSink } from '../events/api-sink.ts';
import { ApiPodSource } from '../config/api-source.ts';
import type { PodConfig } from '../config/types.ts';
import { ApiStatusSyncer } from '../status/api-syncer.ts';
import type { StatusManager } from '../status/types.ts';
import { isTerminalPhase } from '../status/brief.ts';
import type { PodStateProvider } from './pod-state-provider.ts';
import type { PodManager } from '../pod/types.ts';
import { MirrorClient } from '../pod/mirror-client.ts';
import { ApiRuntimeClasses } from '../runtimeclass/runtime-class-manager.ts';
import { isStaticPod } from '../api/pod-helpers.ts';
import { NodeStatusManager } from '../nodestatus/node-status-manager.ts';
import { NodeLeaseController } from '../nodestatus/lease.ts';
import { defaultNodeIP, readHostFacts } from '../nodestatus/host-facts.ts';
import type { MachineFacts, NodeImage, NodeStatusInput } from '../nodestatus/types.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { ClusterStatus, NodeSummary } from './types.ts';
import type { ApiServerConfig, KubeletConfig, KubeletDeps } from './config.ts';
import type { PodWorkers } from './pod-workers.ts';

export interface ApiServerWiringDeps {
  client: ApiClient;
  clock: Clock;
  logger: Logger;
  bus: EventBus;
  recorder: () => EventRecorder;
  podConfig: PodConfig;
  podManager: PodManager;
  statusManager: () => StatusManager;
  summary: () => NodeSummary;
  listImages: () => Promise<NodeImage[]>;
  /** The pod workers' lifecycle answers (mirror pods, and when a deleted pod's API object may go). */
  podState: () => PodStateProvider;
  /** The Node's spec.podCIDRs to the runtime (the kubelet's updatePodCIDR); true when the range changed. */
  updatePodCIDR?: (cidrs: string) => Promise<boolean>;
  nodeName: string;
  rootDir: string;
  maxPods: number;
  kubeletVersion: string;
}

export class ApiServerWiring {
  readonly source: ApiPodSource;
  readonly syncer: ApiStatusSyncer;
  readonly nodeStatus: NodeStatusManager;
  readonly lease: NodeLeaseController;
  readonly sink: ApiEventSink;
  readonly mirrors: MirrorClient;
  /** node.k8s.io/v1 RuntimeClass objects (listed and watched from the first pod that names a class). */
  readonly runtimeClasses: ApiRuntimeClasses;
  private machine: MachineFacts | undefined;
  private mirrorTimer: TimerHandle | undefined;
  private unsubscribe: (() => void) | undefined;
  private mirrorPass: Promise<void> | undefined;

  constructor(
    private readonly d: ApiServerWiringDeps,
    private readonly c: ApiServerConfig,
  ) {
    const { client, clock, logger, nodeName } = d;
    this.source = new ApiPodSource({ client, clock, logger: logger.child('api-source'), onUpdate: d.podConfig.channel('api') }, { nodeName });
    this.syncer = new ApiStatusSyncer(
      { client, clock, logger: logger.child('status-syncer'), target: (uid) => this.target(uid), canBeDeleted: (uid, s) => this.canBeDeleted(uid, s) },
      { resyncMs: c.resyncMs },
    );
    this.nodeStatus = new NodeStatusManager(
      {
        client,
        clock,
        logger: logger.child('node-status'),
        input: () => this.input(),
        onEvent: (e) => d.recorder().event({ kind: 'Node', name: nodeName, uid: nodeName }, e.type, e.reason, e.message),
        ...(d.updatePodCIDR ? { updatePodCIDR: d.updatePodCIDR } : {}),
      },
      {
        nodeName,
        registerNode: c.registerNode,
        nodeLabels: c.nodeLabels,
        updateFrequencyMs: c.nodeStatusUpdateFrequencyMs,
        reportFrequencyMs: c.nodeStatusReportFrequencyMs,
      },
    );
    this.lease = new NodeLeaseController(
      { client, clock, logger: logger.child('lease'), nodeUid: () => this.nodeStatus.nodeUid },
      { nodeName, leaseDurationSeconds: c.nodeLeaseDurationSeconds },
    );
    this.sink = new ApiEventSink({ client, bus: d.bus, logger: logger.child('event-sink'), nodeName });
    this.mirrors = new MirrorClient({ client, logger: logger.child('mirror'), nodeName, nodeUid: () => this.nodeStatus.nodeUid });
    this.runtimeClasses = new ApiRuntimeClasses({ api: client, clock });
  }

  /** Before the kubelet's own loops: the event sink first (so Starting is posted), then node and lease. */
  async start(): Promise<void> {
    this.sink.start();
    this.machine = await readHostFacts(this.d.rootDir).catch(() => undefined);
    this.nodeStatus.start();
    this.lease.start();
    this.syncer.start();
    this.mirrorTimer = this.d.clock.setInterval(() => void this.syncMirrors(), this.c.resyncMs ?? 10_000);
    this.unsubscribe = this.d.bus.subscribe((e) => {
      if (e.type === 'podConfig') void this.syncMirrors();
      if (e.type === 'runtime') void this.nodeStatus.tick();
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.mirrorTimer?.cancel();
    this.nodeStatus.stop();
    this.lease.stop();
    this.syncer.stop();
    await this.sink.stop();
    await this.runtimeClasses.stop();
    this.d.client.close();
  }

  /** The cluster connection as the node summary shows it (console, logs). */
  status(): ClusterStatus {
    const lease = this.lease.lastRenew;
    const err = this.source.lastError ?? this.lease.lastError;
    return {
      server: this.d.client.server,
      registered: this.nodeStatus.registered,
      ...(this.nodeStatus.nodeUid ? { nodeUid: this.nodeStatus.nodeUid } : {}),
      ...(lease !== undefined ? { leaseRenewTime: new Date(lease).toISOString() } : {}),
      podsListed: this.source.lists > 0,
      ...(err ? { lastError: err } : {}),
    };
  }

  /** One mirror pod pass (shared with one in flight); newly mirrored static pods get their status resent. */
  syncMirrors(): Promise<void> {
    this.mirrorPass ??= (async () => {
      if (!this.nodeStatus.registered) return;
      const pm = this.d.podManager;
      const r = await this.mirrors.reconcile(pm.getStaticPods(), pm.getMirrorPods(), (p) => this.mirrorUnwanted(p.metadata?.uid ?? ''), this.d.podConfig.sourcesReady());
      if (r.created.length > 0 || r.deleted.length > 0) this.d.logger.info('mirror pods', r);
      await this.syncer.syncAll();
    })().finally(() => (this.mirrorPass = undefined));
    return this.mirrorPass;
  }

  private target(uid: string): PodRef | undefined {
    const pod = this.d.podManager.getPodByUid(uid);
    if (!pod) return undefined;
    const ref = (p: V1Pod): PodRef => ({ namespace: p.metadata?.namespace ?? 'default', name: p.metadata?.name ?? '', uid: p.metadata?.uid ?? '' });
    if (!isStaticPod(pod)) return ref(pod);
    const mirror = this.d.podManager.getMirrorPodByPod(pod);
    return mirror ? ref(mirror) : undefined;
  }

  /**
   * No mirror pod for a static pod that is not being synced (the kubelet creates mirrors in SyncPod only): its
   * termination was requested, or it is terminated / unknown to the pod workers.
   */
  private mirrorUnwanted(uid: string): boolean {
    const s = this.d.podState();
    return s.isPodTerminationRequested(uid) || s.shouldPodRuntimeBeRemoved(uid);
  }

  private canBeDeleted(uid: string, status: V1PodStatus): boolean {
    const pod = this.d.podManager.getPodByUid(uid);
    if (!pod || isStaticPod(pod) || !pod.metadata?.deletionTimestamp) return false;
    if (!isTerminalPhase(status.phase)) return false;
    const running = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? []), ...(status.ephemeralContainerStatuses ?? [])].some((s) => s.state?.running);
    if (running) return false;
    if (this.d.podState().shouldPodRuntimeBeRemoved(uid)) return true;
    // The worker sets the final status just before it finishes terminating: look again shortly.
    this.d.clock.setTimeout(() => void this.syncer.kick(uid), 1_000);
    return false;
  }

  private async input(): Promise<NodeStatusInput> {
    const s = this.d.summary();
    this.machine ??= await readHostFacts(this.d.rootDir).catch(() => undefined);
    const images = await this.d.listImages().catch(() => [] as NodeImage[]);
    const ready = s.runtimeReady && !s.runtimeMessage;
    const pressure = s.pressure ?? [];
    return {
      nodeName: this.d.nodeName,
      hostname: this.d.nodeName,
      nodeIP: this.c.nodeIP ?? defaultNodeIP(),
      kubeletPort: this.c.kubeletPort,
      kubeletVersion: this.d.kubeletVersion,
      maxPods: this.d.maxPods,
      machine: this.machine ?? { cpuCores: 1, memoryBytes: 0, ephemeralStorageBytes: 0, hugepages: {}, machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '' },
      ...(s.runtime ? { runtime: { name: s.runtime.name, version: s.runtime.version } } : {}),
      readiness: { ready, message: ready ? '' : s.runtimeMessage || 'container runtime is down' },
      pressure: { memory: pressure.includes('MemoryPressure'), disk: pressure.includes('DiskPressure'), pid: pressure.includes('PIDPressure') },
      images,
      ...(s.devicePlugins ? { devicePlugins: s.devicePlugins } : {}),
    };
  }
}

/** What the kubelet lends the wiring (getters for managers built after it). */
export interface KubeletParts {
  bus: EventBus;
  recorder: () => EventRecorder;
  podConfig: PodConfig;
  podManager: PodManager;
  statusManager: () => StatusManager;
  summary: () => NodeSummary;
  workers: () => PodWorkers;
  /** The kubelet's updatePodCIDR (the pod CIDR updater is built after the wiring). */
  updatePodCIDR?: (cidrs: string) => Promise<boolean>;
}

/** API-server mode when deps.apiClient and config.apiServer are given; undefined (standalone) otherwise. */
export function buildApiServerWiring(deps: KubeletDeps, config: KubeletConfig, k: KubeletParts): ApiServerWiring | undefined {
  const { apiClient, clock, logger, cri } = deps;
  if (!apiClient || !config.apiServer) return undefined;
  return new ApiServerWiring(
    {
      client: apiClient,
      clock,
      logger: logger.child('apiserver'),
      bus: k.bus,
      recorder: k.recorder,
      podConfig: k.podConfig,
      podManager: k.podManager,
      statusManager: k.statusManager,
      summary: k.summary,
      listImages: async () => (await cri.listImages({})).images.map((i) => ({ names: [...i.repoTags, ...i.repoDigests], sizeBytes: Number(i.size) })),
      podState: k.workers,
      ...(k.updatePodCIDR ? { updatePodCIDR: k.updatePodCIDR } : {}),
      nodeName: config.nodeName,
      rootDir: config.rootDir,
      maxPods: config.maxPods,
      kubeletVersion: config.kubeletVersion,
    },
    config.apiServer,
  );
}
