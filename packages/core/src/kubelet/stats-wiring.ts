/**
 * Stats, metrics, the container manager and the OOM watcher, wired for the kubelet and served as StatsApi:
 * the StatsProvider tracks the QoS tree, pods and running containers (re-synced from the pod manager and the
 * runtime status cache every `trackPeriodMs`), /stats/summary, the three metrics registries, the cAdvisor
 * data and the reference-counted sample stream.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { isStaticPod } from '../api/pod-helpers.ts';
import type { CgroupLayout, HostFs } from '../cm/types.ts';
import { joinCgroup, KUBEPODS } from '../cm/cgroup-name.ts';
import type { PodStatus } from '../container/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { EventBus } from '../events/types.ts';
import { CADVISOR_CONTENT_TYPE } from '../metrics/cadvisor-collector.ts';
import { CadvisorRenderer } from '../metrics/cadvisor-renderer.ts';
import { CadvisorPageCache } from '../metrics/cadvisor-page.ts';
import { createRegistry } from '../metrics/registry.ts';
import { registerResourceCollectors } from '../metrics/resource-collector.ts';
import type { OomWatcherHandle } from '../oom/create-oom-watcher.ts';
import type { OomEvent } from '../oom/types.ts';
import type { HousekeeperConfig } from '../stats/housekeeper.ts';
import { StatsProvider } from '../stats/stats-provider.ts';
import { createCgroupStatsReader } from '../stats/cgroup-stats.ts';
import { createCgroupSampler } from '../stats/sampler.ts';
import type { CriClient } from '../cri/types.ts';
import { instrumentCri } from '../kuberuntime/instrumented-cri.ts';
import type { RuntimeMetrics } from '../kuberuntime/types.ts';
import { withCriFallback } from './cri-stats-sampler.ts';
import { cadvisorFsRows, deviceOf, WritableLayerCache } from './stats-writable-layers.ts';
import { fsStats } from '../stats/fs-stats.ts';
import type { FsSample } from '../stats/types.ts';
import type { Summary } from '../stats/summary-types.ts';
import type { ContainerSample, DiskUsage, MachineInfo } from '../stats/types.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { sameItems } from '../util/same-items.ts';
import { CmWiring, type CmWiringConfig } from './cm-wiring.ts';
import { KubeletMetricsWiring } from './metrics-wiring.ts';
import { startOomWiring } from './oom-wiring.ts';
import { listProcesses, ownCgroup } from './proc-list.ts';
import type { CgroupStatus, MetricsPath, ProcessInfo, StatsApi, StatsContainer } from './stats-api.ts';
import { statsSources, type StatsSources } from './stats-sources.ts';

export interface NodeStatsDeps {
  fs: HostFs;
  du: DiskUsage;
  clock: Clock;
  logger: Logger;
  recorder: EventRecorder;
  bus: EventBus;
  pods: () => V1Pod[];
  status: (uid: string) => PodStatus | undefined;
  /** The pod has a live worker (not terminated). */
  active: (uid: string) => boolean;
  /** Runtime stats for containers whose cgroups cannot be read (not root), and the writable layers. */
  cri?: CriClient;
  /** Where the CRI calls are timed (kubelet_runtime_operations_*); default this wiring's kubelet metrics. */
  runtimeMetrics?: RuntimeMetrics;
}

export interface NodeStatsConfig extends CmWiringConfig {
  nodeName: string;
  podLogsDir: string;
  /** The runtime's image store (imagefs); default rootDir. */
  imageFsPath?: string;
  nodeStartTimeMs: number;
  housekeeping?: HousekeeperConfig & { fsUsageIntervalMs?: number };
  /** Tracked-set re-sync (default 2 s). */
  trackPeriodMs?: number;
  /** Watch the kernel log for OOM kills (default true). */
  oomWatcher?: boolean;
}

const EMPTY_LAYOUT: CgroupLayout = { mode: 'v1', v1: {}, driver: 'v1' };

export class NodeStats implements StatsApi {
  readonly cm: CmWiring;
  readonly kubeletMetrics: KubeletMetricsWiring;
  private provider: StatsProvider | undefined;
  /** /metrics/cadvisor, rendered on the first scrape after the provider's data changed. */
  private cadvisor: CadvisorPageCache | undefined;
  private oom: OomWatcherHandle | undefined;
  private timer: TimerHandle | undefined;
  private system: { name: 'kubelet' | 'runtime' | 'pods'; cgroup: string; startTimeMs: number }[] = [];
  private readonly resourceRegistry = createRegistry();
  private readonly layers: WritableLayerCache | undefined;
  private memo: { key: unknown[]; value: StatsSources } | undefined;
  /** deps.cri through the instrumented client, so stats calls count in the CRI metrics. */
  private readonly cri: CriClient | undefined;
  private imageFs: { device: string; stats: FsSample } | undefined;

  constructor(
    private readonly deps: NodeStatsDeps,
    private readonly config: NodeStatsConfig,
  ) {
    this.cm = new CmWiring({ fs: deps.fs, clock: deps.clock, logger: deps.logger.child('cm'), activePods: () => deps.pods().filter((p) => deps.active(p.metadata?.uid ?? '')) }, config);
    this.kubeletMetrics = new KubeletMetricsWiring({
      clock: deps.clock,
      nodeName: config.nodeName,
      pods: () => deps.pods().map((p) => ({ uid: p.metadata?.uid ?? '', static: isStaticPod(p), ephemeralContainers: p.spec?.ephemeralContainers?.length ?? 0 })),
      status: deps.status,
      active: deps.active,
    });
    this.cri = deps.cri ? instrumentCri(deps.cri, deps.runtimeMetrics ?? this.kubeletMetrics.runtime, deps.clock) : undefined;
    this.layers = this.cri ? new WritableLayerCache({ cri: this.cri, logger: deps.logger.child('writable-layers') }) : undefined;
    this.cm.observe = (op, s) => this.kubeletMetrics.metrics.cgroupManagerDuration.observe({ operation_type: op }, s);
  }

  async start(): Promise<void> {
    if (this.provider) return;
    const { deps, config } = this;
    this.kubeletMetrics.attach(deps.bus);
    await this.cm.start();
    const layout = this.cm.cm.layout ?? EMPTY_LAYOUT;
    const base = createCgroupSampler({ reader: createCgroupStatsReader(deps.fs, layout), fs: deps.fs, clock: deps.clock });
    const provider = new StatsProvider(
      {
        sampler: this.cri ? withCriFallback(base, this.cri, () => deps.clock.now()) : base,
        fs: deps.fs,
        clock: deps.clock,
        logger: deps.logger,
        layout,
        du: deps.du,
        containerFs: (t) => (t.labels?.container && t.labels.name ? cadvisorFsRows(this.layers?.get(t.labels.name), this.imageFs) : undefined),
        summary: {
          nodeName: () => config.nodeName,
          nodeStartTime: () => config.nodeStartTimeMs,
          nodeFsPath: () => config.rootDir,
          imageFsPath: () => config.imageFsPath ?? config.rootDir,
          pods: () => this.sources().summaryPods,
          systemContainers: () => this.system.map((s) => ({ name: s.name, cgroup: s.cgroup, startTime: s.startTimeMs })),
        },
      },
      config.housekeeping ?? {},
    );
    provider.fsUsage.addJob(() => this.refreshFs(provider));
    await provider.start();
    this.provider = provider;
    const renderer = new CadvisorRenderer();
    this.cadvisor = new CadvisorPageCache({ generation: () => provider.generation(), render: () => renderer.renderPage(provider.cadvisorSource()) });
    registerResourceCollectors(this.resourceRegistry, () => provider.cpuAndMemorySummary());
    await this.findSystemContainers(layout);
    this.syncTracked();
    this.timer = deps.clock.setInterval(() => this.syncTracked(), config.trackPeriodMs ?? 2_000);
    if (config.oomWatcher !== false) await this.startOom(layout);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.oom?.stop();
    this.oom = undefined;
    this.provider?.stop();
    this.provider = undefined;
    this.cadvisor = undefined;
    this.kubeletMetrics.detach();
    this.cm.stop();
  }

  private async startOom(layout: CgroupLayout): Promise<void> {
    const { deps } = this;
    this.oom = await startOomWiring({
      fs: deps.fs,
      clock: deps.clock,
      logger: deps.logger,
      recorder: deps.recorder,
      nodeName: this.config.nodeName,
      layout,
      cgroups: () => this.containers().filter((c) => c.kind === 'container').map((c) => c.key),
      podRef: (uid) => {
        const p = deps.pods().find((x) => x.metadata?.uid === uid);
        return p ? { namespace: p.metadata?.namespace ?? 'default', name: p.metadata?.name ?? '', uid } : undefined;
      },
      scope: {
        podRoots: [joinCgroup(this.config.cgroupRoot, KUBEPODS)],
        knownPod: (uid) => deps.pods().some((x) => x.metadata?.uid === uid),
      },
    });
  }

  /** On the housekeeping interval: the runtime's writable layers and the image filesystem's statfs. */
  private async refreshFs(provider: StatsProvider): Promise<void> {
    await this.layers?.refresh();
    const path = this.config.imageFsPath ?? this.config.rootDir;
    const s = await fsStats(this.deps.fs, path);
    this.imageFs = s.ok ? { device: deviceOf(path, provider.machineInfo()?.filesystems ?? []), stats: s.stats } : undefined;
    provider.dataChanged(); // container_fs_* read the layers and imageFs
  }

  private async findSystemContainers(layout: CgroupLayout): Promise<void> {
    const now = this.deps.clock.now();
    const kubelet = await ownCgroup(this.deps.fs, layout, 'self');
    if (kubelet) this.system.push({ name: 'kubelet', cgroup: kubelet, startTimeMs: now });
    if (this.cm.perQos) this.system.push({ name: 'pods', cgroup: joinCgroup(this.config.cgroupRoot, KUBEPODS), startTimeMs: now });
  }

  private sources(): StatsSources {
    // Asked every 2 s (tracking), by each summary and the console's list: the mapping runs again only when a pod, its
    // spec or status, its runtime status, the system containers or the writable layers are other objects than last time.
    const pods = this.deps.pods();
    const key: unknown[] = [this.system.length, this.layers?.version()];
    for (const p of pods) key.push(p, p.spec, p.status, this.deps.status(p.metadata?.uid ?? ''));
    if (this.memo && sameItems(this.memo.key, key)) return this.memo.value;
    const value = this.mapSources(pods);
    this.memo = { key, value };
    return value;
  }

  private mapSources(pods: V1Pod[]): StatsSources {
    return statsSources({
      pods,
      status: this.deps.status,
      podCgroup: (p) => this.cm.cgroupParent(p),
      podLogsDir: this.config.podLogsDir,
      ...(this.config.cgroupRoot !== undefined ? { cgroupRoot: this.config.cgroupRoot } : {}),
      perQos: this.cm.qosManaged,
      system: this.system,
      rootDir: this.config.rootDir,
      ...(this.layers ? { writableLayer: (id: string) => this.layers?.get(id) } : {}),
    });
  }

  /** The housekeeper, once started (tests wait on its idle()). */
  housekeeper() {
    return this.provider?.housekeeper;
  }

  /** Makes the housekeeper track what is running now. */
  syncTracked(): void {
    this.provider?.syncTracked(this.sources().tracked);
  }

  summary(opts: { onlyCpuAndMemory?: boolean } = {}): Promise<Summary> {
    if (!this.provider) return Promise.resolve({ node: { nodeName: this.config.nodeName, startTime: new Date(this.config.nodeStartTimeMs).toISOString() }, pods: [] });
    return this.provider.summary(opts);
  }

  async podStats(namespace: string, name: string) {
    const s = await this.summary();
    return s.pods.find((p) => p.podRef.namespace === namespace && p.podRef.name === name);
  }

  async metrics(path: MetricsPath): Promise<{ contentType: string; body: string }> {
    if (path === 'kubelet') return this.kubeletMetrics.exposition();
    if (path === 'cadvisor') return { contentType: CADVISOR_CONTENT_TYPE, body: this.cadvisor?.text() ?? '\n' };
    return { contentType: this.resourceRegistry.contentType, body: await this.resourceRegistry.metrics() };
  }

  async cadvisorPage(opts: { gzip: boolean }): Promise<{ contentType: string; body: Buffer; contentEncoding?: 'gzip' }> {
    const page = this.cadvisor ? await this.cadvisor.body(opts) : { body: Buffer.from('\n') };
    return { contentType: CADVISOR_CONTENT_TYPE, ...page };
  }

  machineInfo(): MachineInfo | undefined {
    return this.provider?.machineInfo();
  }

  containers(): StatsContainer[] {
    const node: StatsContainer = { key: '/', kind: 'node', labels: { name: '/' }, startTimeMs: this.config.nodeStartTimeMs };
    return [node, ...this.sources().list];
  }

  history(key: string, sinceMs?: number, limit?: number): ContainerSample[] {
    return this.provider?.history(key, sinceMs, limit) ?? [];
  }

  watch(key: string, listener: (key: string, sample: ContainerSample) => void): () => void {
    return this.provider ? this.provider.watch(key, listener) : () => {};
  }

  processes(key = '/'): Promise<ProcessInfo[]> {
    return listProcesses(this.deps.fs, this.cm.cm.layout ?? EMPTY_LAYOUT, key);
  }

  cgroups(): CgroupStatus {
    return this.cm.status();
  }

  ooms(): OomEvent[] {
    return this.oom?.watcher.recent() ?? [];
  }

  oomKilled(containerId: string): OomEvent | undefined {
    return this.oom?.watcher.oomKilled(containerId);
  }
}
