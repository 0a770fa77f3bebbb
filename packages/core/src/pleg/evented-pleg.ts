/**
 * Evented PLEG: hears container changes from the runtime's event stream (CRI GetContainerEvents, or
 * containerd's own event service on containerd 1.6) and reacts within milliseconds, keeping the generic
 * relist as the safety net.
 *
 * Each runtime event triggers an immediate relist of the wrapped GenericPleg (coalesced while one is in
 * flight). The relist diffs against the last one, so an event stream that drops or repeats events can neither
 * lose nor duplicate a lifecycle transition: events only decide WHEN we look, the runtime's own listing decides
 * WHAT changed. While the stream is up the timer relist slows to `eventedRelistPeriodMs` (300 s) with the
 * `eventedRelistThresholdMs` (10 min) health threshold, and the cache's global timestamp is refreshed every
 * `cacheRefreshMs` so pod workers waiting for a fresh status are not held for a whole relist period (as the
 * kubelet's evented PLEG does). When the stream breaks the PLEG relists at once, drops back to the 1 s relist
 * and reconnects with exponential back-off.
 */
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { BoundedChannel } from '../util/bounded-channel.ts';
import type { PodStatusCache } from '../container/types.ts';
import type { EventSourceDetection, RuntimeContainerEvent, RuntimeEventSource } from '../cri/runtime-events.ts';
import type { GenericPleg } from './generic-pleg.ts';
import type { PlegHealth, PlegMetrics, PodLifecycleEvent, PodLifecycleEventGenerator } from './types.ts';

export interface EventedPlegDeps {
  /** The generic PLEG doing the relists (created by the caller with the fallback period). */
  generic: GenericPleg;
  cache: PodStatusCache;
  clock: Clock;
  logger: Logger;
  /** Finds the event source (e.g. `() => detectEventSource(cri, endpoint, deps)`); retried on RuntimeUnavailable. */
  detect: (signal: AbortSignal) => Promise<EventSourceDetection>;
  metrics?: PlegMetrics;
  /** Called for every runtime event after it triggered a relist (benches, diagnostics). */
  onRuntimeEvent?: (e: RuntimeContainerEvent) => void;
}

export interface EventedPlegConfig {
  /** Relist period while the stream is down or absent: 1 s. */
  fallbackRelistPeriodMs: number;
  fallbackRelistThresholdMs: number;
  /** Relist period while the stream is up: 300 s. */
  eventedRelistPeriodMs: number;
  /** Health threshold while the stream is up: 10 min. */
  eventedRelistThresholdMs: number;
  /** A stream open this long without error counts as connected. */
  establishMs: number;
  reconnectInitialMs: number;
  reconnectMaxMs: number;
  /** Cache global-timestamp refresh while connected. */
  cacheRefreshMs: number;
}

export const DEFAULT_EVENTED_PLEG_CONFIG: EventedPlegConfig = {
  fallbackRelistPeriodMs: 1_000,
  fallbackRelistThresholdMs: 180_000,
  eventedRelistPeriodMs: 300_000,
  eventedRelistThresholdMs: 600_000,
  establishMs: 500,
  reconnectInitialMs: 1_000,
  reconnectMaxMs: 30_000,
  cacheRefreshMs: 1_000,
};

export type EventedPlegMode = 'connecting' | 'evented' | 'relist-only';

export class EventedPleg implements PodLifecycleEventGenerator {
  private readonly config: EventedPlegConfig;
  private readonly log: Logger;
  private abort: AbortController | undefined;
  private refreshTimer: TimerHandle | undefined;
  private connected = false;
  private sourceName: string | undefined;
  private modeValue: EventedPlegMode = 'connecting';
  /** Runtime events received (all streams). */
  eventsReceived = 0;

  constructor(
    private readonly deps: EventedPlegDeps,
    config: Partial<EventedPlegConfig> = {},
  ) {
    this.config = { ...DEFAULT_EVENTED_PLEG_CONFIG, ...config };
    this.log = deps.logger.child('evented-pleg');
  }

  get mode(): EventedPlegMode {
    return this.modeValue;
  }

  /** The event source in use ('cri', 'containerd') once detected. */
  get source(): string | undefined {
    return this.sourceName;
  }

  start(): void {
    if (this.abort) return;
    this.abort = new AbortController();
    this.deps.generic.setPeriod(this.config.fallbackRelistPeriodMs, this.config.fallbackRelistThresholdMs);
    this.deps.generic.start();
    void this.run(this.abort.signal);
  }

  stop(): void {
    this.abort?.abort();
    this.abort = undefined;
    this.setConnected(false);
    this.deps.generic.stop();
  }

  watch(): BoundedChannel<PodLifecycleEvent> {
    return this.deps.generic.watch();
  }

  healthy(): PlegHealth {
    return this.deps.generic.healthy();
  }

  lastRelist(): number | undefined {
    return this.deps.generic.lastRelist();
  }

  updateCache(uid: string, name: string, namespace: string): Promise<void> {
    return this.deps.generic.updateCache(uid, name, namespace);
  }

  private async run(signal: AbortSignal): Promise<void> {
    let delay = this.config.reconnectInitialMs;
    const backOff = async (): Promise<boolean> => {
      try {
        await this.deps.clock.sleep(delay, signal);
      } catch {
        return false;
      }
      delay = Math.min(delay * 2, this.config.reconnectMaxMs);
      return true;
    };
    let source: RuntimeEventSource | undefined;
    while (!signal.aborted && !source) {
      const d = await this.deps.detect(signal);
      if (signal.aborted) return;
      if (d.ok) {
        source = d.source;
        this.sourceName = source.name;
        break;
      }
      if (d.reason === 'EventsUnsupported') {
        this.log.info('no runtime event source: relisting only', { message: d.message });
        this.modeValue = 'relist-only';
        return;
      }
      this.deps.metrics?.eventedPlegConnectionErrors.inc();
      this.log.warn('runtime event source not reachable; retrying', { message: d.message, retryMs: delay });
      if (!(await backOff())) return;
    }
    while (source && !signal.aborted) {
      const established = await this.consume(source, signal);
      if (signal.aborted) return;
      if (established) delay = this.config.reconnectInitialMs;
      if (!(await backOff())) return;
    }
  }

  /** Reads one stream until it breaks; true when it had been established. */
  private async consume(source: RuntimeEventSource, signal: AbortSignal): Promise<boolean> {
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const openedAt = this.deps.clock.now();
    let establish: TimerHandle | undefined;
    // An open stream proves nothing by itself (a call may hang while the runtime restarts): count it as
    // connected once it stayed up establishMs AND a relist since it opened reached the runtime.
    const confirm = (): void => {
      establish = undefined;
      void this.deps.generic.relistSoon().then(() => {
        if (ac.signal.aborted || this.connected) return;
        if ((this.deps.generic.lastRelist() ?? -Infinity) >= openedAt) this.setConnected(true);
        else establish = this.deps.clock.setTimeout(confirm, this.config.establishMs);
      });
    };
    establish = this.deps.clock.setTimeout(confirm, this.config.establishMs);
    try {
      for await (const ev of source.subscribe(ac.signal)) {
        this.setConnected(true);
        this.onEvent(ev);
      }
    } catch (err) {
      if (!signal.aborted) {
        this.deps.metrics?.eventedPlegConnectionErrors.inc();
        this.log.warn('runtime event stream broke; relisting every second until it is back', { source: source.name, err: String(err) });
      }
    } finally {
      establish?.cancel();
      signal.removeEventListener('abort', onAbort);
      ac.abort();
    }
    const was = this.connected;
    this.setConnected(false);
    return was;
  }

  private onEvent(ev: RuntimeContainerEvent): void {
    this.eventsReceived++;
    this.log.debug('runtime event', { kind: ev.kind, containerId: ev.containerId, lagMs: this.deps.clock.now() - ev.time });
    const m = this.deps.metrics;
    if (m && ev.time > 0) m.eventedPlegConnectionLatency.observe(Math.max(0, this.deps.clock.now() - ev.time) / 1000);
    m?.plegLastSeen.set(this.deps.clock.now() / 1000);
    void this.deps.generic.relistSoon();
    this.deps.onRuntimeEvent?.(ev);
  }

  private setConnected(up: boolean): void {
    if (up === this.connected) return;
    this.connected = up;
    const g = this.deps.generic;
    if (up) {
      this.modeValue = 'evented';
      this.deps.metrics?.eventedPlegConnections.inc();
      this.log.info('runtime event stream connected', { source: this.sourceName });
      g.setPeriod(this.config.eventedRelistPeriodMs, this.config.eventedRelistThresholdMs);
      // Anything that changed while we were not listening.
      void g.relistSoon();
      this.refreshTimer = this.deps.clock.setInterval(() => this.refreshCache(), this.config.cacheRefreshMs);
      return;
    }
    if (this.abort) this.modeValue = 'connecting';
    this.refreshTimer?.cancel();
    this.refreshTimer = undefined;
    g.setPeriod(this.config.fallbackRelistPeriodMs, this.config.fallbackRelistThresholdMs);
    // Events may have been lost with the stream: look now.
    if (this.abort) void g.relistSoon();
  }

  /** While connected, every pod's cached status is as fresh as the stream: let waiting workers go. */
  private refreshCache(): void {
    const g = this.deps.generic;
    if (!this.connected || g.busy) return;
    // A pod whose inspection failed is retried now, not at the next 300 s relist.
    if (g.pendingReinspection > 0) void g.relistSoon();
    else this.deps.cache.updateTime(this.deps.clock.now());
  }
}
