/**
 * One probe worker per (pod, container, probe type), as the kubelet's prober worker: a jittered first run,
 * then one run per periodSeconds (or at once on a manual trigger), each bounded by its own timeout, so a hung
 * probe delays nothing but itself. Threshold counting, initial delay, startup gating, restarts (a new
 * container id resets the worker). A liveness/startup failure only lands in the results cache: the kubelet hears
 * it there (a sync-loop input) and computePodActions kills and restarts the container.
 */
import type { V1Container, V1ContainerStatus, V1Pod, V1PodStatus, V1Probe } from '@kubernetes/client-node';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { ProbeEvents } from './events.ts';
import type { ProberMetrics, ProbeSeries } from './metrics.ts';
import { runProbe } from './prober.ts';
import {
  PROBE_DEFAULTS,
  runtimeContainerId,
  type ProbeResult,
  type ProbeRunner,
  type ProbeStatusProvider,
  type ProbeType,
  type ResultsManager,
  type RunOutcome,
} from './types.ts';

export interface ProbeRunReport {
  pod: V1Pod;
  container: string;
  probeType: ProbeType;
  result: ProbeResult;
  previous?: ProbeResult;
  output: string;
  latencyMs: number;
  effective?: ProbeResult;
  /** The cached result flipped on this run (threshold reached). */
  effectiveChanged?: boolean;
}

export interface WorkerDeps {
  clock: Clock;
  runner: ProbeRunner;
  statusProvider: ProbeStatusProvider;
  results: ResultsManager;
  /** Whether the container counts as started (startup probe succeeded, or there is none). */
  isStarted(podUid: string, containerName: string, containerId: string): boolean;
  events?: ProbeEvents;
  metrics?: ProberMetrics;
  /** Every run's report; the manager decides what to publish. */
  onRun?(r: ProbeRunReport): void;
  /** Called once when the worker stops (the manager forgets it). */
  onStopped?(w: ProbeWorker): void;
  logger?: Logger;
  /** Jitter source in [0, 1). */
  random(): number;
  /** Monotonic ms at which the manager started (jitter only applies shortly after). */
  managerStartedAt(): number;
}

/** The result a container has before its first counted run (upstream initialValue). */
export function initialResult(t: ProbeType): ProbeResult {
  return t === 'readiness' ? 'failure' : t === 'liveness' ? 'success' : 'unknown';
}

export function probeOf(c: V1Container, t: ProbeType): V1Probe | undefined {
  return t === 'liveness' ? c.livenessProbe : t === 'readiness' ? c.readinessProbe : c.startupProbe;
}

function findStatus(s: V1PodStatus, name: string): V1ContainerStatus | undefined {
  const withId = (l: V1ContainerStatus[] | undefined) => l?.find((c) => c.name === name && !!c.containerID);
  return withId(s.containerStatuses) ?? withId(s.initContainerStatuses);
}

function toMs(t: Date | string | undefined): number {
  if (t === undefined) return 0;
  const ms = t instanceof Date ? t.getTime() : Date.parse(t);
  return Number.isFinite(ms) ? ms : 0;
}

export class ProbeWorker {
  readonly probe: V1Probe;
  readonly podUid: string;
  containerId = '';
  lastResult: ProbeResult | undefined;
  resultRun = 0;
  onHold = false;
  private timer: TimerHandle | undefined;
  private inFlight = false;
  private pendingTrigger = false;
  private stopped = false;
  private started = false;
  private nextDue = 0;

  constructor(
    private readonly deps: WorkerDeps,
    readonly pod: V1Pod,
    readonly container: V1Container,
    readonly probeType: ProbeType,
  ) {
    const p = probeOf(container, probeType);
    if (!p) throw new Error(`container ${container.name} has no ${probeType} probe`);
    this.probe = p;
    this.podUid = pod.metadata?.uid ?? '';
  }

  get periodMs(): number {
    return (this.probe.periodSeconds || PROBE_DEFAULTS.periodSeconds) * 1000;
  }

  get series(): ProbeSeries {
    const m = this.pod.metadata;
    return { probeType: this.probeType, container: this.container.name, pod: m?.name ?? '', namespace: m?.namespace ?? '', podUid: this.podUid };
  }

  isStopped(): boolean {
    return this.stopped;
  }

  /** Starts the loop: jitter (only if the manager started less than a period ago), then runs. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const c = this.deps.clock;
    const jitter = this.periodMs > c.monotonic() - this.deps.managerStartedAt() ? Math.floor(this.deps.random() * this.periodMs) : 0;
    this.nextDue = c.monotonic() + jitter;
    this.schedule(jitter);
  }

  /**
   * Runs at once (on a zero timer, so a caller building the pod status finishes first; or right after the
   * run in flight), then every period from this run on.
   */
  trigger(): void {
    if (this.stopped || !this.started) return;
    if (this.inFlight) {
      this.pendingTrigger = true;
      return;
    }
    this.timer?.cancel();
    this.nextDue = this.deps.clock.monotonic();
    this.schedule(0);
  }

  /** Stops the loop; idempotent. Cleans the results cache and metrics. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.timer?.cancel();
    if (this.containerId) this.deps.results.remove(this.containerId);
    this.deps.metrics?.forget(this.series);
    this.deps.onStopped?.(this);
  }

  private schedule(ms: number): void {
    this.timer = this.deps.clock.setTimeout(() => void this.tick(), Math.max(0, ms));
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    if (this.inFlight) {
      this.pendingTrigger = true;
      return;
    }
    this.inFlight = true;
    let keepGoing = true;
    try {
      keepGoing = await this.doProbe();
    } catch (err) {
      this.deps.logger?.error('probe worker run threw', { error: String(err), pod: this.podUid, container: this.container.name });
    } finally {
      this.inFlight = false;
    }
    if (!keepGoing) return this.stop();
    if (this.stopped) return;
    const now = this.deps.clock.monotonic();
    if (this.pendingTrigger) {
      this.pendingTrigger = false;
      this.nextDue = now;
      return this.schedule(0);
    }
    this.nextDue += this.periodMs;
    // A run that overran its tick runs again at once (a Go ticker keeps one tick buffered).
    if (this.nextDue <= now) {
      while (this.nextDue <= now) this.nextDue += this.periodMs;
      return this.schedule(0);
    }
    this.schedule(this.nextDue - now);
  }

  /** One probe iteration; returns whether the worker should keep going (upstream doProbe). */
  async doProbe(): Promise<boolean> {
    const status = this.deps.statusProvider.getPodStatus(this.podUid);
    if (!status) return true;
    if (status.phase === 'Failed' || status.phase === 'Succeeded') return false;
    const c = findStatus(status, this.container.name);
    if (!c) return true;
    const id = runtimeContainerId(c.containerID);
    if (id !== this.containerId) this.newContainer(id);
    if (this.onHold) return true;
    if (!c.state?.running) {
      this.deps.results.set(id, 'failure', this.pod, this.container.name);
      const restarts = this.pod.spec?.restartPolicy !== 'Never' || this.container.restartPolicy === 'Always';
      return !c.state?.terminated || restarts;
    }
    if (this.pod.metadata?.deletionTimestamp && this.probeType !== 'readiness') {
      this.deps.results.set(id, 'success', this.pod, this.container.name);
      return false;
    }
    const startedAt = toMs(c.state.running.startedAt as Date | string | undefined);
    const initialDelay = this.probe.initialDelaySeconds ?? PROBE_DEFAULTS.initialDelaySeconds;
    if (Math.trunc((this.deps.clock.now() - startedAt) / 1000) < initialDelay) return true;
    const started = this.deps.isStarted(this.podUid, this.container.name, id);
    if (started === (this.probeType === 'startup')) return true;
    const t0 = this.deps.clock.monotonic();
    const outcome = await runProbe(this.deps.runner, this.deps.clock, this.probe, this.container, status, id);
    if (this.stopped || id !== this.containerId) return true;
    this.record(outcome, this.deps.clock.monotonic() - t0);
    return true;
  }

  private newContainer(id: string): void {
    if (this.containerId) this.deps.results.remove(this.containerId);
    this.containerId = id;
    this.deps.results.set(id, initialResult(this.probeType), this.pod, this.container.name);
    this.onHold = false;
    this.lastResult = undefined;
    this.resultRun = 0;
  }

  private record(o: RunOutcome, latencyMs: number): void {
    this.deps.events?.record(this.pod, this.container.name, this.probeType, o);
    const previous = this.lastResult;
    if (o.error !== undefined) {
      // A prober error: the kubelet throws the result away (no count, no metric).
      this.report('unknown', previous, o.error, latencyMs);
      return;
    }
    const result: ProbeResult = o.status === 'success' || o.status === 'warning' ? 'success' : 'failure';
    this.deps.metrics?.observe(this.series, result, latencyMs / 1000);
    if (this.lastResult === result) this.resultRun++;
    else {
      this.lastResult = result;
      this.resultRun = 1;
    }
    const failureThreshold = this.probe.failureThreshold || PROBE_DEFAULTS.failureThreshold;
    const successThreshold = this.probe.successThreshold || PROBE_DEFAULTS.successThreshold;
    const below =
      (result === 'failure' && this.resultRun < failureThreshold) || (result === 'success' && this.resultRun < successThreshold);
    const before = this.deps.results.get(this.containerId);
    if (!below) this.deps.results.set(this.containerId, result, this.pod, this.container.name);
    this.report(result, previous, o.output, latencyMs, before);
    if (below) return;
    // A failed container will be restarted (and a started one needs no more startup runs): hold until a new
    // container id shows up.
    if ((this.probeType === 'liveness' && result === 'failure') || this.probeType === 'startup') {
      this.onHold = true;
      this.resultRun = 0;
    }
  }

  private report(result: ProbeResult, previous: ProbeResult | undefined, output: string, latencyMs: number, before?: ProbeResult): void {
    const effective = this.deps.results.get(this.containerId);
    this.deps.onRun?.({
      pod: this.pod,
      container: this.container.name,
      probeType: this.probeType,
      result,
      previous,
      output,
      latencyMs,
      effective,
      effectiveChanged: before !== undefined && before !== effective,
    });
  }
}
