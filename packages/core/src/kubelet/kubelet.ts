/**
 * The Kubelet: starts and stops the parts KubeletWiring (kubelet-wiring.ts) builds and wires — config sources, pod
 * manager, admission, status manager, PLEG, pod workers, the sync loop, the CRI runtime — and implements the
 * KubeletApi facade the agent serves.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { containerLogs } from './container-logs.ts';
import { healthReport } from './health.ts';
import { runningPodsAsV1 } from './running-pods.ts';
import { startMemoryManager } from './topology-wiring.ts';
import { DEFAULT_SYNC_FREQUENCY_MS, type KubeletConfig, type KubeletDeps } from './config.ts';
import type { ContainerLogOptions, HealthReport, KubeletApi, LogsResult, NodeSummary } from './types.ts';
import { KubeletWiring } from './kubelet-wiring.ts';

export class Kubelet extends KubeletWiring implements KubeletApi {
  private running = false;
  private unsubscribe: (() => void) | undefined;

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopped = false;
    this.startCpuManager();
    startMemoryManager(this.topology?.mm);
    // As NewMainKubelet: the configured range first; in API-server mode the Node's spec.podCIDRs then win.
    await this.podCidr.start(this.config.podCIDR ?? '');
    await this.api?.start();
    this.recorder.event({ kind: 'Node', name: this.config.nodeName }, 'Normal', 'Starting', 'Starting kubelet.');
    await this.stats?.start().catch((err: unknown) => this.deps.logger.error('stats failed to start', { err: String(err) }));
    await this.devices?.start().catch((err: unknown) => this.deps.logger.error('device manager failed to start', { err: String(err) }));
    await this.resourceApis?.start();
    this.runtimeState.start();
    this.statusManager.start();
    this.probes.manager.start();
    this.pleg.start();
    this.volumes?.start();
    this.unsubscribe = this.podConfig.subscribe((update) => this.syncLoop.push({ kind: 'config', update }));
    this.syncLoop.start();
    this.eviction.start();
    this.logManager?.start();
    await this.nodeShutdown?.start();
    await Promise.all(
      this.sources.map((s) =>
        s.start().catch((err: unknown) => this.deps.logger.error('pod source failed to start', { source: s.name, err: String(err) })),
      ),
    );
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopped = true;
    await Promise.all(this.sources.map((s) => s.stop()));
    this.unsubscribe?.();
    this.syncLoop.stop();
    this.eviction.stop();
    this.logManager?.stop();
    await this.nodeShutdown?.stop();
    this.pleg.stop();
    await this.volumes?.stop();
    this.runtimeState.stop();
    this.podCidr.stop();
    this.probes.manager.stop();
    this.statusManager.stop();
    this.stats?.stop();
    this.cpuManager?.stop();
    await this.resourceApis?.stop();
    await this.devices?.stop();
    await this.api?.stop();
  }

  getPods(): V1Pod[] {
    return this.podManager.getPods().map((p) => this.withStatus(p));
  }

  getPod(namespace: string, name: string): V1Pod | undefined {
    const p = this.podManager.getPodByName(namespace, name);
    return p ? this.withStatus(p) : undefined;
  }

  async getRunningPods(): Promise<V1Pod[]> {
    return runningPodsAsV1(await this.runtime.getPods(false));
  }

  healthz(): HealthReport {
    return healthReport({
      now: this.deps.clock.now(),
      syncLoopLastIteration: this.running ? this.syncLoop.lastIteration : undefined,
      syncFrequencyMs: this.config.syncFrequencyMs ?? DEFAULT_SYNC_FREQUENCY_MS,
      pleg: this.pleg.healthy(),
      runtimeReady: this.runtimeState.ready,
      runtimeMessage: this.runtimeState.message,
    });
  }

  node(): NodeSummary {
    const s: NodeSummary = {
      name: this.config.nodeName,
      runtimeReady: this.runtimeState.ready,
      startTime: this.startTime,
      kubeletVersion: this.config.kubeletVersion,
      podCount: this.podManager.getPods().length,
      maxPods: this.config.maxPods,
      pressure: this.eviction.pressure(),
    };
    if (this.runtimeState.info) s.runtime = { ...this.runtimeState.info, endpoint: this.config.runtimeEndpoint };
    if (this.api) s.cluster = this.api.status();
    if (this.devices) s.devicePlugins = this.devices.capacity();
    const pleg = this.pleg.healthy();
    const msg = [this.runtimeState.message, this.running && !pleg.ok && this.pleg.lastRelist() !== undefined ? `PLEG is not healthy: ${pleg.message}` : '', this.nodeShutdown?.shutdownStatus() ?? '']
      .filter((x) => x)
      .join('; ');
    if (msg) s.runtimeMessage = msg;
    return s;
  }

  containerLogs(
    namespace: string,
    pod: string,
    container: string,
    opts: ContainerLogOptions,
    write: (chunk: string) => void,
    signal: AbortSignal,
  ): Promise<LogsResult> {
    return containerLogs(
      {
        clock: this.deps.clock,
        cache: this.cache,
        findPod: (ns, name) => this.podManager.getPodByName(ns, name),
        podStatus: (uid) => this.statusManager.getPodStatus(uid),
        isRunning: async (uid, id) => {
          const p = this.podManager.getPodByUid(uid);
          const st = await this.runtime.getPodStatus(uid, p?.metadata?.name ?? '', p?.metadata?.namespace ?? '');
          // isContainerRunning of the kubelet's log reader (kuberuntime/logs): only EXITED and UNKNOWN end a
          // follow; a container still CREATED (its start not yet through the runtime) is about to write.
          return st.containerStatuses.some((c) => c.id.id === id && (c.state === 'running' || c.state === 'created'));
        },
      },
      namespace,
      pod,
      container,
      opts,
      write,
      signal,
    );
  }

  /** The container manager's Start of the CPU manager: a state file it cannot use stops the kubelet. */
  private startCpuManager(): void {
    try {
      this.cpuManager?.start();
    } catch (err) {
      this.running = false;
      throw new Error(`start cpu manager error: ${(err as Error).message}`);
    }
  }
}

export function createKubelet(deps: KubeletDeps, config: KubeletConfig): Kubelet {
  return new Kubelet(deps, config);
}
