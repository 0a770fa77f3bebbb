/**
 * Evented PLEG: hears container changes from the runtime's event stream (CRI GetContainerEvents, or
 * containerd's own event service on containerd 1.6) and reacts within milliseconds, keeping the generic
 * relist as the safety net.
 *
 * An event about a pod the PLEG knows (by container or sandbox id) touches that pod only: an exit that carries
 * its terminated state but not the whole pod (containerd's TaskExit) is shown at once (cache + ContainerDied, no
 * runtime call; marked exitHeardAt, as it lacks the termination message: the pod worker waits up to 2 s for the
 * runtime's read, kubelet/heard-exits.ts); an exit carrying the whole pod is shown from it (below). Then the pod is re-read
 * (after the source's `settle`, when CRI lags the event) and diffed; re-reads of one pod run one at a time and
 * coalesce. An event that carries the whole pod (CRI events: the sandbox's and every container's status) stands
 * for that read, as the kubelet's evented PLEG builds the pod's status from it (GeneratePodStatus), unless it may
 * not show all of the pod or is older than the cached status (GenericPleg.fromEvent).
 * An event about an id nobody knows yet (a new sandbox) re-reads the pod it names (podUid), else relists. Every path diffs against the same
 * published view (PodRecords), so an event stream that drops or repeats events can neither lose nor
 * duplicate a lifecycle transition: events only decide WHEN we look, the runtime decides WHAT changed, and
 * the relist reconciles what no event told. While the stream is up the timer relist slows to
 * `eventedRelistPeriodMs` (300 s) with the `eventedRelistThresholdMs` (10 min) health threshold, and the
 * cache's global timestamp is refreshed every `cacheRefreshMs` so pod workers waiting for a fresh status are
 * not held for a whole relist period (as the kubelet's evented PLEG does). When the stream breaks the PLEG
 * relists at once, drops back to the 1 s relist and reconnects with exponential back-off (the stream's side:
 * event-stream.ts). On a pod start's path (start-path-events.ts) events are handled after the turn that brought
 * them, and a syncing pod's own created / started events are left to its worker's read.
 */
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { BoundedChannel } from '../util/bounded-channel.ts';
import type { PodStatusCache, Runtime } from '../container/types.ts';
import type { EventSourceDetection, RuntimeContainerEvent, RuntimeEventSource } from '../cri/runtime-events.ts';
import type { GenericPleg } from './generic-pleg.ts';
import { LeftToWorker } from './start-path-events.ts';
import { EventStream } from './event-stream.ts';
import {
  DEFAULT_EVENTED_PLEG_CONFIG,
  type EventedPlegConfig,
  type PlegHealth,
  type PlegMetrics,
  type PodLifecycleEvent,
  type PodLifecycleEventGenerator,
} from './types.ts';

export interface EventedPlegDeps {
  /** The generic PLEG doing the relists (created by the caller with the fallback period). */
  generic: GenericPleg;
  cache: PodStatusCache;
  clock: Clock;
  logger: Logger;
  /** Finds the event source (e.g. `() => detectEventSource(cri, endpoint, deps)`); retried on RuntimeUnavailable. */
  detect: (signal: AbortSignal) => Promise<EventSourceDetection>;
  metrics?: PlegMetrics;
  /**
   * The pod's status from what an event carries (Runtime.generatePodStatus): a pod re-read for an event that carries
   * the whole pod is built from the event instead (the kubelet's evented PLEG). Absent: every event re-reads.
   */
  generatePodStatus?: NonNullable<Runtime['generatePodStatus']>;
  /** Called for every runtime event after it was handled (benches, diagnostics). */
  onRuntimeEvent?: (e: RuntimeContainerEvent) => void;
  /** True while the pod's worker runs its sync (PodWorkers.isSyncingPod): see LeftToWorker. */
  syncingPod?: (uid: string) => boolean;
}

export class EventedPleg extends EventStream<EventedPlegDeps> implements PodLifecycleEventGenerator {
  private abort: AbortController | undefined;
  private refreshTimer: TimerHandle | undefined;
  /** Pods with a re-read in flight → the events that came since it began. */
  private readonly pending = new Map<string, RuntimeContainerEvent[]>();
  /** Events about unknown ids waiting for CRI to agree before they relist. */
  private settling = 0;
  private readonly leftToWorker: LeftToWorker;
  /** Exit events left to fromEvent (their pod's status built from the event), not shown as heard. */
  private readonly held = new WeakSet<RuntimeContainerEvent>();
  /** Runtime events received (all streams). */
  eventsReceived = 0;

  constructor(deps: EventedPlegDeps, config: Partial<EventedPlegConfig> = {}) {
    super(deps, { ...DEFAULT_EVENTED_PLEG_CONFIG, ...config }, deps.logger.child('evented-pleg'));
    this.leftToWorker = new LeftToWorker(deps.syncingPod);
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

  updateCache(uid: string, name: string, namespace: string, after?: number): Promise<void> {
    // The worker's read after a sync whose own events were left to it: read as the events' re-read would have, its
    // transitions published (the ContainerStarted that brings the pod's next sync).
    if (this.leftToWorker.take(uid)) return this.deps.generic.inspect(uid);
    return this.deps.generic.updateCache(uid, name, namespace, after);
  }

  /** A sandbox's IPs as a heard, not yet handled event shows them (HeardEvents.sandboxIps). */
  heardSandboxIps(podSandboxId: string): string[] | undefined {
    return this.heard.sandboxIps(podSandboxId);
  }

  protected onEvent(ev: RuntimeContainerEvent, source: RuntimeEventSource, signal: AbortSignal): void {
    this.eventsReceived++;
    this.log.debug('runtime event', { kind: ev.kind, containerId: ev.containerId, lagMs: this.deps.clock.now() - ev.time });
    const m = this.deps.metrics;
    if (m && ev.time > 0) m.eventedPlegConnectionLatency.observe(Math.max(0, this.deps.clock.now() - ev.time) / 1000);
    m?.plegLastSeen.set(this.deps.clock.now() / 1000);
    const g = this.deps.generic;
    // An id nobody knows whose event names its pod (CRI events carry the sandbox's uid, as the kubelet's evented
    // PLEG reads it): that pod is re-read like a known one; a burst of new pods does not relist once per pod.
    const uid = g.podOf(ev.containerId) ?? (ev.sandboxId ? g.podOf(ev.sandboxId) : undefined) ?? ev.podUid;
    if (ev.kind === 'deleted') g.forgetExit(ev.containerId);
    if (uid === undefined) {
      // A new pod the event does not name: the relist finds it (once CRI shows what the event says). Not a creation
      // CRI could not place (containerd's ContainerCreate of a sandbox's pause container, sent before RunPodSandbox
      // stores the sandbox): a relist now cannot show it; its start's event, or its creator's read, will.
      if (ev.source !== 'containerd' || ev.kind !== 'created' || ev.sandboxId !== undefined) this.relistAfter(ev, source, signal);
    } else {
      // An exit whose event carries the whole pod is shown from it (fromEvent: the kubelet's evented PLEG builds the
      // status, termination message included, and caches it at the event's time), with no read of the pod and no
      // wait for one in the pod worker. Shown at once as heard (exitHeardAt) when a read of the pod is under way.
      if (ev.kind === 'exited' && ev.exit) {
        if (this.deps.generatePodStatus && ev.pod && !this.pending.has(uid)) this.held.add(ev);
        else g.exited(uid, ev.containerId, ev.exit, !this.pending.has(uid));
      }
      if (!this.leftToWorker.leave(uid, ev)) this.reread(uid, ev, source, signal);
    }
    this.deps.onRuntimeEvent?.(ev);
  }

  private relistAfter(ev: RuntimeContainerEvent, source: RuntimeEventSource, signal: AbortSignal): void {
    this.settling++;
    void settled(source, ev, signal).then(() => {
      this.settling--;
      if (!signal.aborted) void this.deps.generic.relistSoon();
    });
  }

  /** Re-reads the pod after `ev` settled; one re-read per pod at a time, later events coalesce into the next. */
  private reread(uid: string, ev: RuntimeContainerEvent, source: RuntimeEventSource, signal: AbortSignal): void {
    const queued = this.pending.get(uid);
    if (queued) {
      queued.push(ev);
      return;
    }
    this.pending.set(uid, [ev]);
    void (async () => {
      try {
        for (let evs = this.take(uid); evs.length > 0 && !signal.aborted; evs = this.take(uid)) {
          await Promise.all(evs.map((e) => settled(source, e, signal)));
          // The last event is the newest view of the pod (a stream is in order): shown as it is when it is whole.
          if (signal.aborted || (await this.fromEvent(uid, evs[evs.length - 1]))) continue;
          // The event could not stand for the pod: its held exits are shown as heard, then the pod is read.
          for (const e of evs) if (this.held.has(e) && e.exit) this.deps.generic.exited(uid, e.containerId, e.exit, false);
          await this.deps.generic.inspect(uid);
        }
      } finally {
        this.pending.delete(uid);
      }
    })();
  }

  /** Shows the pod as `ev` carries it; false when it carries no whole pod (a deletion is always read: its container is gone from the event). */
  private async fromEvent(uid: string, ev: RuntimeContainerEvent | undefined): Promise<boolean> {
    const generate = this.deps.generatePodStatus;
    if (!generate || !ev?.pod || ev.kind === 'deleted') return false;
    const status = await generate(ev.pod).catch(() => undefined);
    return status?.uid === uid && this.deps.generic.fromEvent(uid, status, ev.time);
  }

  private take(uid: string): RuntimeContainerEvent[] {
    const evs = this.pending.get(uid) ?? [];
    if (evs.length > 0) this.pending.set(uid, []);
    return evs;
  }

  protected setConnected(up: boolean): void {
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
    // Not while an event is still being turned into cache entries: a worker let go now would act on a status
    // that misses it (e.g. a container it just started, shown 'created': it would start another).
    if (!this.connected || g.busy || this.pending.size > 0 || this.settling > 0 || this.heard.size > 0) return;
    // A pod whose inspection failed is retried now, not at the next 300 s relist.
    if (g.pendingReinspection > 0) void g.relistSoon();
    else this.deps.cache.updateTime(this.deps.clock.now());
  }
}

/** Resolves once CRI shows `ev` (sources whose CRI lags their events), never rejects. */
async function settled(source: RuntimeEventSource, ev: RuntimeContainerEvent, signal: AbortSignal): Promise<void> {
  await source.settle?.(ev, signal).catch(() => undefined);
}
