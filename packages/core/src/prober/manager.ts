/**
 * The probe manager (the kubelet's prober_manager): owns the workers, the three results caches, feeds
 * readiness/startup flips to the status sink, fills `started`/`ready` into pod statuses (UpdatePodStatus)
 * and streams probe runs to the bus (every change; every run when asked, rate-limited).
 */
import type { V1Container, V1ContainerStatus, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { EventRecorder } from '../events/recorder.ts';
import type { ProbeBusEvent } from '../events/types.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { ProbeEvents, type ProbeEventsConfig } from './events.ts';
import type { ProberMetrics } from './metrics.ts';
import { ResultsCache } from './results.ts';
import {
  runtimeContainerId,
  type AddPodResult,
  type ProbeBusPublisher,
  type ProbeManager,
  type ProbeRunner,
  type ProbeStatusProvider,
  type ProbeStatusSink,
  type ProbeType,
  type ProbeWorkerInfo,
  type ResultUpdate,
} from './types.ts';
import { workerInfo, type LastRun } from './worker-info.ts';
import { validatePodProbes } from './validation.ts';
import { probeOf, ProbeWorker, type ProbeRunReport } from './worker.ts';

export interface ProbeManagerDeps {
  clock: Clock;
  runner: ProbeRunner;
  statusProvider: ProbeStatusProvider;
  statusSink?: ProbeStatusSink;
  recorder?: EventRecorder;
  bus?: ProbeBusPublisher;
  metrics?: ProberMetrics;
  logger?: Logger;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
}

export interface ProbeManagerConfig {
  /** Publish every run on the bus, not only changes (rate-limited per worker). Default false. */
  publishEveryRun?: boolean;
  /** Every-run publishing: runs per second per worker (default 1) and burst (default 5). */
  everyRunPerSecond?: number;
  everyRunBurst?: number;
  /** Unhealthy/ProbeWarning event rate limits per (pod, container, probe, reason). */
  events?: ProbeEventsConfig;
}

const TYPES: ProbeType[] = ['startup', 'readiness', 'liveness'];

const key = (uid: string, name: string, t: ProbeType) => `${uid}\u0000${name}\u0000${t}`;

/** Containers that get probe workers: regular containers and sidecar (restartPolicy Always) init containers. */
export function probedContainers(pod: V1Pod): V1Container[] {
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  return [...sidecars, ...(pod.spec?.containers ?? [])];
}

/** One probe run as the bus would carry it (without seq). */
export type ProbeRun = Omit<ProbeBusEvent, 'type' | 'seq'>;

export class KubeletProbeManager implements ProbeManager {
  readonly liveness = new ResultsCache('liveness');
  readonly readiness = new ResultsCache('readiness');
  readonly startup = new ResultsCache('startup');
  private readonly workers = new Map<string, ProbeWorker>();
  private readonly pods = new Map<string, V1Pod>();
  private readonly events: ProbeEvents;
  private readonly runBuckets = new Map<string, { tokens: number; last: number }>();
  private readonly lastRuns = new Map<string, LastRun>();
  private startedAt: number | undefined;
  private everyRun: boolean;
  private readonly unsubscribe: Array<() => void> = [];
  private readonly runListeners = new Set<(run: ProbeRun) => void>();

  constructor(
    private readonly deps: ProbeManagerDeps,
    private readonly config: ProbeManagerConfig = {},
  ) {
    this.events = new ProbeEvents(deps.recorder, deps.clock, config.events);
    this.everyRun = config.publishEveryRun ?? false;
  }

  /** Every run, unthrottled, to a listener (the flight recorder folds them into spans); returns the unsubscribe. */
  onRun(listener: (run: ProbeRun) => void): () => void {
    this.runListeners.add(listener);
    return () => void this.runListeners.delete(listener);
  }

  /** Turns publishing of every run (rate-limited) on or off, e.g. while a console watches a pod. */
  setPublishEveryRun(enabled: boolean): void {
    this.everyRun = enabled;
  }

  start(): void {
    if (this.startedAt !== undefined) return;
    this.startedAt = this.deps.clock.monotonic();
    this.unsubscribe.push(
      this.readiness.onUpdate((u) => this.deps.statusSink?.setContainerReadiness(u.podUid, u.containerName, u.result === 'success')),
      this.startup.onUpdate((u) => this.onStartupUpdate(u)),
    );
    for (const w of this.workers.values()) w.start();
  }

  stop(): void {
    for (const w of [...this.workers.values()]) w.stop();
    for (const u of this.unsubscribe.splice(0)) u();
    this.startedAt = undefined;
  }

  addPod(pod: V1Pod): AddPodResult {
    const uid = pod.metadata?.uid ?? '';
    const errors = validatePodProbes(pod);
    if (errors.length > 0) {
      const message = errors.join(', ');
      this.deps.logger?.warn('refusing probes of invalid pod', { pod: uid, errors });
      return { ok: false, reason: 'FailedValidation', message, errors };
    }
    this.pods.set(uid, pod);
    let count = 0;
    for (const c of probedContainers(pod)) {
      for (const t of TYPES) {
        if (!probeOf(c, t)) continue;
        const k = key(uid, c.name, t);
        if (this.workers.has(k)) {
          this.deps.logger?.warn('probe worker already exists', { pod: uid, container: c.name, probeType: t });
          continue;
        }
        const w = this.newWorker(pod, c, t);
        this.workers.set(k, w);
        if (this.startedAt !== undefined) w.start();
        count++;
      }
    }
    return { ok: true, workers: count };
  }

  stopLivenessAndStartup(pod: V1Pod): void {
    const uid = pod.metadata?.uid ?? '';
    for (const w of [...this.workers.values()]) if (w.podUid === uid && w.probeType !== 'readiness') w.stop();
  }

  removePod(pod: V1Pod): void {
    this.removeUid(pod.metadata?.uid ?? '');
  }

  cleanupPods(desiredUids: ReadonlySet<string>): void {
    const uids = new Set([...this.workers.values()].map((w) => w.podUid));
    for (const uid of this.pods.keys()) uids.add(uid);
    for (const uid of uids) if (!desiredUids.has(uid)) this.removeUid(uid);
  }

  updatePodStatus(podUid: string, status: V1PodStatus): V1PodStatus {
    const pod = this.pods.get(podUid);
    for (const c of status.containerStatuses ?? []) this.fillProbed(podUid, c);
    const sidecars = new Set((pod?.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
    for (const c of status.initContainerStatuses ?? []) {
      if (sidecars.has(c.name)) this.fillProbed(podUid, c);
      else c.ready = !!c.state?.terminated && c.state.terminated.exitCode === 0;
    }
    return status;
  }

  /** Runs the container's probe of type `t` now (e.g. readiness right after a container start). */
  trigger(podUid: string, containerName: string, t: ProbeType): boolean {
    const w = this.workers.get(key(podUid, containerName, t));
    w?.trigger();
    return !!w;
  }

  isStarted(podUid: string, containerName: string, containerId: string): boolean {
    const r = this.startup.get(containerId);
    if (r !== undefined) return r === 'success';
    return !this.workers.has(key(podUid, containerName, 'startup'));
  }

  getWorker(podUid: string, containerName: string, t: ProbeType): ProbeWorker | undefined {
    return this.workers.get(key(podUid, containerName, t));
  }

  workerCount(): number {
    return this.workers.size;
  }

  /** Every live worker with its spec, cached result and last run (the console's probe table). */
  snapshot(): ProbeWorkerInfo[] {
    return [...this.workers.entries()].map(([k, w]) => {
      const results = w.probeType === 'liveness' ? this.liveness : w.probeType === 'readiness' ? this.readiness : this.startup;
      return workerInfo(w, w.containerId ? results.get(w.containerId) : undefined, this.lastRuns.get(k));
    });
  }

  /** Events dropped by the per-key Unhealthy limiter. */
  droppedEvents(): number {
    return this.events.dropped;
  }

  private fillProbed(podUid: string, c: V1ContainerStatus): void {
    const id = runtimeContainerId(c.containerID);
    const running = !!c.state?.running;
    const started = running && this.isStarted(podUid, c.name, id);
    c.started = started;
    if (!started) {
      c.ready = false;
      return;
    }
    if (this.readiness.get(id) === 'success') {
      c.ready = true;
      return;
    }
    const w = this.workers.get(key(podUid, c.name, 'readiness'));
    c.ready = !w;
    // Not ready yet and a readiness probe exists: run it now rather than at the next tick.
    w?.trigger();
  }

  private onStartupUpdate(u: ResultUpdate): void {
    this.deps.statusSink?.setContainerStartup(u.podUid, u.containerName, u.result === 'success');
    if (u.result === 'success') this.trigger(u.podUid, u.containerName, 'readiness');
  }

  private removeUid(uid: string): void {
    for (const w of [...this.workers.values()]) if (w.podUid === uid) w.stop();
    this.pods.delete(uid);
    this.events.forgetPod(uid);
    for (const k of [...this.runBuckets.keys()]) if (k.startsWith(`${uid}\u0000`)) this.runBuckets.delete(k);
  }

  private newWorker(pod: V1Pod, c: V1Container, t: ProbeType): ProbeWorker {
    const results = t === 'liveness' ? this.liveness : t === 'readiness' ? this.readiness : this.startup;
    return new ProbeWorker(
      {
        clock: this.deps.clock,
        runner: this.deps.runner,
        statusProvider: this.deps.statusProvider,
        results,
        isStarted: (uid, name, id) => this.isStarted(uid, name, id),
        events: this.events,
        metrics: this.deps.metrics,
        onRun: (r) => this.publish(r),
        onStopped: (w) => {
          const k = key(w.podUid, w.container.name, w.probeType);
          if (this.workers.get(k) === w) {
            this.workers.delete(k);
            this.lastRuns.delete(k);
          }
        },
        logger: this.deps.logger,
        random: this.deps.random ?? Math.random,
        managerStartedAt: () => this.startedAt ?? this.deps.clock.monotonic(),
      },
      pod,
      c,
      t,
    );
  }

  private publish(r: ProbeRunReport): void {
    const k = key(r.pod.metadata?.uid ?? '', r.container, r.probeType);
    this.lastRuns.set(k, { time: new Date(this.deps.clock.now()).toISOString(), result: r.result, output: r.output, latencyMs: Math.round(r.latencyMs) });
    const bus = this.deps.bus;
    if (!bus && this.runListeners.size === 0) return;
    const m = r.pod.metadata;
    const run: ProbeRun = {
      time: new Date(this.deps.clock.now()).toISOString(),
      pod: { namespace: m?.namespace ?? 'default', name: m?.name ?? '', uid: m?.uid ?? '' },
      container: r.container,
      probeType: r.probeType,
      result: r.result,
      ...(r.previous !== undefined ? { previous: r.previous } : {}),
      ...(r.output !== '' ? { output: r.output } : {}),
      latencyMs: Math.round(r.latencyMs),
      ...(r.effective !== undefined ? { effective: r.effective } : {}),
    };
    for (const l of this.runListeners) l(run);
    const changed = r.previous !== r.result || r.effectiveChanged === true;
    if (!bus || (!changed && !(this.everyRun && this.takeRunToken(r)))) return;
    bus.publish({ type: 'probe', ...run });
  }

  private takeRunToken(r: ProbeRunReport): boolean {
    const k = key(r.pod.metadata?.uid ?? '', r.container, r.probeType);
    const burst = this.config.everyRunBurst ?? 5;
    const rate = this.config.everyRunPerSecond ?? 1;
    const now = this.deps.clock.monotonic();
    const b = this.runBuckets.get(k) ?? { tokens: burst, last: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.last) / 1000) * rate);
    b.last = now;
    this.runBuckets.set(k, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
