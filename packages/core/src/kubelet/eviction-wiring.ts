/**
 * Eviction manager, image GC and container GC, wired for the kubelet and served as EvictionApi / GcApi:
 * stats come from the Summary (kubelet stats), evictions go through the pod workers (kill with the eviction
 * grace period) and leave the pod Failed / Evicted with the kubelet's message; pressure changes and GC results
 * are published on the event bus. Periods: eviction 10 s, container GC 1 min, image GC 5 min.
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { CriClient } from '../cri/types.ts';
import type { EventBus } from '../events/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { podRef } from '../events/recorder.ts';
import type { PodManager } from '../pod/types.ts';
import type { StatusManager } from '../status/types.ts';
import type { Summary } from '../stats/summary-types.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { EvictionManager, type EvictionKillRequest } from '../eviction/manager.ts';
import { DEFAULT_PRESSURE_TRANSITION_PERIOD_MS, parseThresholdConfig, type EvictionSettings } from '../eviction/thresholds.ts';
import type { EvictionApi, GcApi, GcPolicies, GcResult, ImageInventory, PressureCondition, PressureSample, PressureState, Threshold } from '../eviction/types.ts';
import { DEFAULT_IMAGE_GC_POLICY, ImageGcManager, type ImageGcPolicy } from '../images/image-gc.ts';
import { ContainerGc, DEFAULT_CONTAINER_GC_POLICY, type ContainerGcPolicy, type GcFs } from '../kuberuntime/container-gc.ts';
import type { PodStatusFunc, PodWorkers } from './pod-workers.ts';
import type { PodStateProvider } from './pod-state-provider.ts';

export interface EvictionWiringConfig extends EvictionSettings {
  /** Parsed thresholds (wins over the evictionHard/Soft maps when given). */
  thresholds?: Threshold[];
  pressureTransitionPeriodMs?: number;
  maxPodGracePeriodSeconds?: number;
  monitoringPeriodMs?: number;
  imageGc?: Partial<ImageGcPolicy>;
  imageGcPeriodMs?: number;
  containerGc?: Partial<ContainerGcPolicy>;
  containerGcPeriodMs?: number;
  /** Pressure samples kept (default 360: one hour at 10 s). */
  historyLimit?: number;
}

export interface EvictionWiringDeps {
  cri: CriClient;
  clock: Clock;
  logger: Logger;
  bus: EventBus;
  recorder: EventRecorder;
  nodeName: string;
  podLogsDir: string;
  podManager: PodManager;
  statusManager: StatusManager;
  workers: () => PodWorkers;
  /** The pod workers' lifecycle answers (container GC: which pods' containers, sandboxes and log dirs may go). */
  podState: () => PodStateProvider;
  /** The kubelet's active pods (active-pods.ts): the eviction manager ranks them. */
  activePods: () => V1Pod[];
  sourcesReady: () => boolean;
  summary: () => Promise<Summary | undefined>;
  gcFs?: GcFs;
  /** The internal container lifecycle's PostStopContainer, before the container GC removes a container. */
  postStopContainer?: (containerId: string) => void;
  metrics?: { evictions: { inc(labels: { eviction_signal: string }): void }; imageGarbageCollected: { inc(labels: { reason: string }): void } };
}

const KILL_WAIT_MS = 60_000;
const SOURCES_POLL_MS = 250;

export class EvictionWiring implements EvictionApi, GcApi {
  readonly manager: EvictionManager;
  readonly imageGc: ImageGcManager;
  readonly containerGc: ContainerGc;
  private readonly listeners = new Set<(s: PressureState) => void>();
  private samples: PressureSample[] = [];
  private timers: TimerHandle[] = [];
  private readonly periods: { image: number; container: number };
  private readonly monitoringPeriodMs: number;

  constructor(
    private readonly deps: EvictionWiringDeps,
    private readonly config: EvictionWiringConfig,
  ) {
    const { clock, logger } = deps;
    this.periods = { image: config.imageGcPeriodMs ?? 300_000, container: config.containerGcPeriodMs ?? 60_000 };
    this.monitoringPeriodMs = config.monitoringPeriodMs ?? 10_000;
    this.imageGc = new ImageGcManager(
      {
        cri: deps.cri,
        clock,
        logger: logger.child('image-gc'),
        imageFs: async () => {
          const fs = (await deps.summary().catch(() => undefined))?.node.runtime?.imageFs;
          return fs?.capacityBytes !== undefined && fs.availableBytes !== undefined ? { capacityBytes: fs.capacityBytes, availableBytes: fs.availableBytes } : undefined;
        },
        countRemoved: (reason) => deps.metrics?.imageGarbageCollected.inc({ reason }),
        event: (type, reason, message) => deps.recorder.event({ kind: 'Node', name: deps.nodeName }, type, reason, message),
      },
      { ...DEFAULT_IMAGE_GC_POLICY, ...config.imageGc },
    );
    this.containerGc = new ContainerGc(
      {
        cri: deps.cri,
        clock,
        logger: logger.child('container-gc'),
        podState: deps.podState,
        allSourcesReady: deps.sourcesReady,
        podLogsDir: deps.podLogsDir,
        ...(deps.gcFs ? { fs: deps.gcFs } : {}),
        ...(deps.postStopContainer ? { postStopContainer: deps.postStopContainer } : {}),
      },
      { ...DEFAULT_CONTAINER_GC_POLICY, ...config.containerGc },
    );
    this.manager = new EvictionManager(
      {
        clock,
        logger: logger.child('eviction'),
        summary: () => deps.summary().catch(() => undefined),
        activePods: deps.activePods,
        killPod: (req) => this.killPod(req),
        reclaimers: [
          { name: 'containers', reclaim: () => this.runGc('containers', 'eviction').then(() => undefined) },
          { name: 'images', reclaim: () => this.runGc('images', 'eviction').then(() => undefined) },
        ],
        event: (target, type, reason, message) =>
          deps.recorder.event(target.kind === 'Pod' ? podRef(target.pod) : { kind: 'Node', name: deps.nodeName }, type, reason, message),
        countEviction: (signal) => deps.metrics?.evictions.inc({ eviction_signal: signal }),
        onState: (s, changed) => this.onState(s, changed),
      },
      {
        thresholds: config.thresholds ?? thresholdsOrThrow(config),
        pressureTransitionPeriodMs: config.pressureTransitionPeriodMs ?? DEFAULT_PRESSURE_TRANSITION_PERIOD_MS,
        monitoringPeriodMs: this.monitoringPeriodMs,
        maxPodGracePeriodSeconds: config.maxPodGracePeriodSeconds ?? 0,
      },
    );
  }

  start(): void {
    if (this.timers.length > 0) return;
    const { clock } = this.deps;
    // Container GC first runs at start, as the kubelet's (wait.Until runs at once), then every period.
    void this.runGc('containers', 'periodic');
    this.startManagerOnceSourcesReady();
    this.timers.push(clock.setInterval(() => void this.runGc('containers', 'periodic'), this.periods.container));
    this.timers.push(clock.setInterval(() => void this.runGc('images', 'periodic'), this.periods.image));
  }

  /**
   * The eviction manager's first pass once every pod source has delivered its pods: an agent restarted under
   * pressure re-admits its running pods first and then evicts them in order (the kubelet's first passes wait on
   * cAdvisor's first housekeeping, which comes after the sources' first pods; ours has stats at once, and refused
   * its own running pods at admission with the pressure condition instead). At most one monitoring period late:
   * a node whose API server cannot be reached still evicts.
   */
  private startManagerOnceSourcesReady(): void {
    if (this.deps.sourcesReady()) {
      this.manager.start();
      return;
    }
    const { clock } = this.deps;
    const deadline = clock.now() + this.monitoringPeriodMs;
    const wait = clock.setInterval(() => {
      if (!this.deps.sourcesReady() && clock.now() < deadline) return;
      wait.cancel();
      this.manager.start();
    }, SOURCES_POLL_MS);
    this.timers.push(wait);
  }

  stop(): void {
    this.manager.stop();
    for (const t of this.timers) t.cancel();
    this.timers = [];
  }

  pressure(): PressureCondition[] {
    return this.manager.pressure();
  }

  // ---- EvictionApi ---------------------------------------------------------------------------------------

  state(): PressureState {
    return this.manager.state();
  }

  history(sinceMs?: number): PressureSample[] {
    return sinceMs === undefined ? [...this.samples] : this.samples.filter((s) => Date.parse(s.time) > sinceMs);
  }

  watch(listener: (s: PressureState) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  // ---- GcApi -----------------------------------------------------------------------------------------------

  images(): Promise<GcResult> {
    return this.runGc('images', 'manual');
  }

  containers(): Promise<GcResult> {
    return this.runGc('containers', 'manual');
  }

  last(): { images?: GcResult; containers?: GcResult } {
    const images = this.imageGc.lastResult();
    const containers = this.containerGc.lastResult();
    return { ...(images ? { images } : {}), ...(containers ? { containers } : {}) };
  }

  policies(): GcPolicies {
    const i = this.imageGc.policy;
    const c = this.containerGc.policy;
    return { image: { ...i, periodMs: this.periods.image }, container: { ...c, periodMs: this.periods.container } };
  }

  imageInventory(): Promise<ImageInventory> {
    return this.imageGc.inventory();
  }

  running(): { images: boolean; containers: boolean } {
    return { images: this.imageGc.running(), containers: this.containerGc.running() };
  }

  // ---- internals ---------------------------------------------------------------------------------------

  private async runGc(kind: 'images' | 'containers', trigger: string): Promise<GcResult> {
    let r: GcResult;
    if (kind === 'images') r = trigger === 'periodic' ? await this.imageGc.garbageCollect(trigger) : await this.imageGc.deleteUnusedImages(trigger);
    else r = trigger === 'eviction' ? await this.containerGc.deleteAllUnusedContainers(trigger) : await this.containerGc.garbageCollect(trigger);
    if (trigger !== 'periodic' || r.removed.length > 0 || r.errors.length > 0) {
      this.deps.bus.publish({ type: 'gc', kind, trigger: r.trigger, removed: r.removed, freedBytes: r.freedBytes, errors: r.errors });
    }
    return r;
  }

  private onState(s: PressureState, changed: boolean): void {
    const values: PressureSample['values'] = {};
    for (const sig of s.signals) if (sig.observed) values[sig.signal] = { available: sig.observed.available, capacity: sig.observed.capacity };
    this.samples.push({ time: s.lastSync ?? new Date(this.deps.clock.now()).toISOString(), conditions: s.conditions, values });
    this.samples = this.samples.slice(-(this.config.historyLimit ?? 360));
    if (changed) {
      this.deps.bus.publish({
        type: 'pressure',
        conditions: s.conditions,
        signals: s.signals.map((x) => ({
          signal: x.signal,
          ...(x.observed ? { available: x.observed.available, capacity: x.observed.capacity } : {}),
          met: x.thresholds.some((t) => t.met),
        })),
      });
    }
    for (const l of this.listeners) {
      try {
        l(s);
      } catch (err) {
        this.deps.logger.warn('eviction: state listener failed', { err: String(err) });
      }
    }
  }

  private async killPod(req: EvictionKillRequest): Promise<boolean> {
    const pod = req.pod;
    const uid = pod.metadata?.uid ?? '';
    const workers = this.deps.workers();
    // The kill carries its status change; the pod worker applies it when it terminates the pod.
    const killPodOptions = { evict: true, podStatusFunc: evictedStatus(req.reason, req.message) };
    workers.updatePod({ updateType: 'kill', pod, gracePeriodOverride: req.gracePeriodOverrideSeconds, killPodOptions });
    let timer: TimerHandle | undefined;
    const done = await Promise.race([
      workers.waitIdle(uid).then(() => true),
      new Promise<boolean>((resolve) => (timer = this.deps.clock.setTimeout(() => resolve(false), KILL_WAIT_MS))),
    ]);
    timer?.cancel();
    if (!done) this.deps.logger.warn('eviction: pod still terminating', { pod: `${pod.metadata?.namespace}/${pod.metadata?.name}` });
    return true;
  }
}

/**
 * The eviction manager's status change (eviction_manager.go evictPod): Failed with the eviction reason and
 * message, and a DisruptionTarget condition (reason TerminationByKubelet).
 */
export function evictedStatus(reason: string, message: string): PodStatusFunc {
  return (s: V1PodStatus) => {
    s.phase = 'Failed';
    s.reason = reason;
    s.message = message;
    const others = (s.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget');
    s.conditions = [...others, { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message }];
  };
}

function thresholdsOrThrow(c: EvictionSettings): Threshold[] {
  const r = parseThresholdConfig(c);
  if (!r.ok) throw new Error(`invalid eviction thresholds: ${r.reason}`);
  return r.value;
}
