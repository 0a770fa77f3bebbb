/**
 * The kubelet's probe wiring: the probe manager (fed by the status manager, flipping ready/started back into
 * it), its own /metrics/probes registry and the ProbesApi facade. Liveness/startup failures are not acted on
 * here: the kubelet feeds them to the sync loop (`onProbeSync`), and computePodActions kills and restarts.
 */
import { Registry } from 'prom-client';
import type { CriClient } from '../cri/types.ts';
import type { EventBus } from '../events/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { KubeletProbeManager, type ProbeManagerConfig, type ProbeRun } from '../prober/manager.ts';
import { createProberMetrics } from '../prober/metrics.ts';
import { createProbeRunner } from '../prober/runners/index.ts';
import type { ProbeWorkerInfo, ResultUpdate } from '../prober/types.ts';
import type { StatusManager } from '../status/types.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { ProbesApi } from './types.ts';
import { byCodeUnit } from '../util/compare.ts';

export interface KubeletProbesDeps {
  cri: CriClient;
  clock: Clock;
  logger: Logger;
  recorder: EventRecorder;
  bus: EventBus;
  statusManager: StatusManager;
}

export interface KubeletProbesConfig extends ProbeManagerConfig {
  /** `<major>.<minor>` for User-Agent kube-probe/<ver>. */
  kubeletVersion: string;
  /** process_start_time_seconds on /metrics/probes. */
  processStartTimeSeconds: number;
}

/** 'v1.34.0-nodelet' → '1.34' (the User-Agent's version). */
export function majorMinor(version: string): string {
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  return m ? `${m[1]}.${m[2]}` : '1.34';
}

export class KubeletProbes implements ProbesApi {
  readonly registry = new Registry();
  readonly manager: KubeletProbeManager;
  private everyRunRefs = 0;

  constructor(
    private readonly deps: KubeletProbesDeps,
    private readonly config: KubeletProbesConfig,
  ) {
    const { clock, cri, logger } = deps;
    this.manager = new KubeletProbeManager(
      {
        clock,
        runner: createProbeRunner({ cri, clock }, { kubeletVersion: majorMinor(config.kubeletVersion) }),
        statusProvider: deps.statusManager,
        statusSink: deps.statusManager,
        recorder: deps.recorder,
        bus: deps.bus,
        metrics: createProberMetrics(this.registry, { processStartTimeSeconds: config.processStartTimeSeconds }),
        logger: logger.child('prober'),
      },
      config,
    );
  }

  /**
   * The results that sync the pod (the kubelet's livenessManager / startupManager Updates() channels, read by
   * syncLoopIteration): liveness and startup failures, and a startup success (a sidecar that started lets the
   * next init container start). Returns the unsubscribe function.
   */
  onProbeSync(listener: (u: ResultUpdate) => void): () => void {
    const unsubs = [
      this.manager.liveness.onUpdate((u) => u.result === 'failure' && listener(u)),
      this.manager.startup.onUpdate((u) => u.result !== 'unknown' && listener(u)),
    ];
    return () => unsubs.forEach((u) => u());
  }

  list(filter?: { namespace?: string; pod?: string }): ProbeWorkerInfo[] {
    return this.manager
      .snapshot()
      .filter((w) => (!filter?.namespace || w.pod.namespace === filter.namespace) && (!filter?.pod || w.pod.name === filter.pod))
      .sort((a, b) => byCodeUnit(`${a.pod.namespace}/${a.pod.name}/${a.container}/${a.probeType}`, `${b.pod.namespace}/${b.pod.name}/${b.container}/${b.probeType}`));
  }

  async metrics(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  onRun(listener: (run: ProbeRun) => void): () => void {
    return this.manager.onRun(listener);
  }

  requestEveryRun(): () => void {
    this.everyRunRefs++;
    this.applyEveryRun();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.everyRunRefs--;
      this.applyEveryRun();
    };
  }

  everyRun(): boolean {
    return this.everyRunRefs > 0 || (this.config.publishEveryRun ?? false);
  }

  private applyEveryRun(): void {
    this.manager.setPublishEveryRun(this.everyRun());
  }
}
