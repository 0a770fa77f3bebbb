/**
 * Generic PLEG (the kubelet's generic.go): every relist period list all pods from the runtime, diff each
 * container's state against the previous relist, refresh the status cache for pods that changed, and send
 * ContainerStarted / ContainerDied / ContainerRemoved events (ContainerChanged only goes to the bus).
 *
 * The evented PLEG also drives it per pod: `exited` shows an exit a runtime event told at once (no runtime
 * call), `inspect` re-reads one pod; both publish through the same PodRecords as the relist, which stays the
 * safety net that reconciles whatever the events missed. A read that shows an exit first heard from an event
 * sends PodSync, so the pod's status is published with what the read adds (the termination message). When it
 * relists (the timer, relistSoon, the period the evented PLEG sets) and its health are relist-loop.ts's.
 */
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { EventBus, PlegEventType } from '../events/types.ts';
import type { PodStatus, PodStatusCache, Runtime, RuntimePod } from '../container/types.ts';
import type { ContainerExit } from '../cri/runtime-events.ts';
import { BoundedChannel } from '../util/bounded-channel.ts';
import {
  DEFAULT_GENERIC_PLEG_CONFIG,
  type GenericPlegConfig,
  type PlegMetrics,
  type PodLifecycleEvent,
  type PodLifecycleEventGenerator,
} from './types.ts';
import { PodRecords, containerNameIn, podFromStatus, showsAll } from './pod-records.ts';
import { RelistLoop } from './relist-loop.ts';

export { computePodEvents, generateEvents } from './pod-records.ts';

export interface GenericPlegDeps {
  runtime: Runtime;
  cache: PodStatusCache;
  clock: Clock;
  logger: Logger;
  bus?: EventBus;
  metrics?: PlegMetrics;
}

export class GenericPleg extends RelistLoop implements PodLifecycleEventGenerator {
  private readonly channel: BoundedChannel<PodLifecycleEvent>;
  private readonly records = new PodRecords();
  private readonly log: Logger;
  private needsReinspection = new Map<string, RuntimePod>();
  /** Pods with an updateCache read in flight (uid → how many). */
  private readonly reading = new Map<string, number>();
  /** The latest inspect() of each pod still in flight, with when its read began. */
  private readonly inspecting = new Map<string, { at: number; done: Promise<void> }>();
  /** Monotonic ms of the last relist start (for kubelet_pleg_relist_interval_seconds). */
  private lastRelistStart: number | undefined;

  constructor(
    private readonly deps: GenericPlegDeps,
    config: Partial<GenericPlegConfig> = {},
  ) {
    super(deps.clock, { ...DEFAULT_GENERIC_PLEG_CONFIG, ...config });
    this.channel = new BoundedChannel(this.config.channelCapacity);
    this.log = deps.logger.child('pleg');
  }

  watch(): BoundedChannel<PodLifecycleEvent> {
    return this.channel;
  }

  /** Events dropped because the channel was full. */
  get discarded(): number {
    return this.channel.dropped;
  }

  /** Re-reads one pod into the cache (a pod worker's fresh read after a sync), stamped when the read begins. */
  async updateCache(uid: string, name: string, namespace: string, after?: number): Promise<void> {
    const timestamp = this.deps.clock.now();
    const joined = this.inspecting.get(uid);
    this.reading.set(uid, (this.reading.get(uid) ?? 0) + 1);
    try {
      // A start's runtime event re-reads the pod at the same moment as the worker's fresh read: one read will do.
      if (after !== undefined && joined && joined.at > after) return await joined.done;
      this.cacheRead(uid, await this.deps.runtime.getPodStatus(uid, name, namespace), timestamp);
    } catch (err) {
      // As a failed inspection: the error is cached and the pod re-read at the next relist (else it stays errored).
      this.failed(uid, this.records.current(uid) ?? { uid, name, namespace, containers: [], sandboxes: [] }, err as Error, timestamp);
    } finally {
      const n = (this.reading.get(uid) ?? 1) - 1;
      if (n > 0) this.reading.set(uid, n);
      else this.reading.delete(uid);
    }
  }

  /** The pod holding a container or sandbox id, as last listed or inspected. */
  podOf(id: string): string | undefined {
    return this.records.uidOf(id);
  }

  /**
   * A runtime event says the container exited: show it now, without asking the runtime (whose status may
   * still say running). The cached status gets the container's terminated state, ContainerDied is published.
   * `fresh`: the cached status reflects every earlier event of the pod, so the patched one is current as of
   * now (pod workers waiting for a newer status may use it); else it keeps the cached entry's age, lest a
   * worker act on a status missing, say, a container it just created. Never fresh while an updateCache read of
   * the pod is in flight: a worker that just changed the pod waits for that read. False when the pod does not
   * (yet) hold the container or it had already exited.
   */
  exited(uid: string, containerId: string, exit: ContainerExit, fresh = true): boolean {
    const pod = this.records.exited(uid, containerId, exit, this.deps.clock.now());
    if (!pod) return false;
    const cached = this.deps.cache.get(uid);
    if (cached.status.containerStatuses.some((c) => c.id.id === containerId)) {
      const at = fresh && !this.busy && !this.reading.has(uid) ? this.deps.clock.now() : cached.modified;
      this.deps.cache.set(uid, this.records.applyExits(cached.status), cached.error, at);
    }
    this.commit(uid, pod);
    return true;
  }

  /** Re-reads one pod from the runtime into the cache and publishes its transitions (the event path). */
  inspect(uid: string): Promise<void> {
    const at = this.deps.clock.now();
    const done = this.inspectAt(uid, at).finally(() => {
      if (this.inspecting.get(uid)?.done === done) this.inspecting.delete(uid);
    });
    this.inspecting.set(uid, { at, done });
    return done;
  }

  private async inspectAt(uid: string, timestamp: number): Promise<void> {
    const known = this.records.current(uid);
    let read: PodStatus;
    try {
      read = await this.deps.runtime.getPodStatus(uid, known?.name ?? '', known?.namespace ?? '');
    } catch (err) {
      if (known) this.failed(uid, known, err as Error, timestamp);
      return;
    }
    this.needsReinspection.delete(uid);
    this.publish(uid, read, timestamp);
  }

  /**
   * A pod status built from a runtime event (the kubelet's GeneratePodStatus), shown as a read begun at the event's
   * time: cached and its transitions published, with no runtime call. False, with nothing changed (the caller reads
   * the pod instead), when the event may not show the whole pod — the PLEG knows a sandbox or container of it the
   * event lacks (an older sandbox, another sandbox's containers) — or is older than the pod's cached entry.
   */
  fromEvent(uid: string, status: PodStatus, timestamp: number): boolean {
    if (timestamp < this.deps.cache.get(uid).modified || !showsAll(status, this.records.current(uid))) return false;
    this.publish(uid, status, timestamp);
    return true;
  }

  /** Caches a pod's status (exits heard from events still shown) and publishes its transitions and confirmed exits. */
  private publish(uid: string, read: PodStatus, timestamp: number): void {
    const confirmed = this.records.confirmedExits(read);
    const status = this.records.applyExits(read);
    const pod = podFromStatus(status);
    if (pod) this.deps.cache.set(uid, status, undefined, timestamp);
    else this.forget(uid, timestamp);
    this.commit(uid, pod);
    this.podSync(uid, confirmed);
  }

  /** Caches a runtime read of the pod (exits heard from events still shown), then podSync for what it confirms. */
  private cacheRead(uid: string, read: PodStatus, timestamp: number): void {
    const confirmed = this.records.confirmedExits(read);
    this.deps.cache.set(uid, this.records.applyExits(read), undefined, timestamp);
    this.podSync(uid, confirmed);
  }

  /**
   * An exit shown from its event lacked what only the runtime's read adds (the termination message), so the pod
   * worker waited for that read (kubelet/heard-exits.ts): now that a read shows it, the pod is synced (PodSync).
   */
  private podSync(uid: string, confirmed: string[]): void {
    for (const id of confirmed) if (!this.channel.trySend({ uid, type: 'PodSync', data: id })) this.deps.metrics?.plegDiscardEvents.inc();
  }

  /** Forgets what events said about a container (it was deleted). */
  forgetExit(containerId: string): void {
    this.records.forget(containerId);
  }

  /** Pods whose last inspection failed (retried on every relist). */
  get pendingReinspection(): number {
    return this.needsReinspection.size;
  }

  protected async doRelist(): Promise<void> {
    const timestamp = this.deps.clock.now();
    const start = this.deps.clock.monotonic();
    const m = this.deps.metrics;
    if (this.lastRelistStart !== undefined) m?.plegRelistInterval.observe((start - this.lastRelistStart) / 1000);
    this.lastRelistStart = start;
    // Versions before the listing is asked for: a pod the event path commits while the runtime answers is newer
    // than the listing (which may not even hold it yet), so the relist must leave it alone.
    const versions = this.records.versions();
    let pods: RuntimePod[];
    try {
      pods = await this.deps.runtime.getPods(true);
    } catch (err) {
      this.log.warn('GenericPLEG: Unable to retrieve pods', { err: String(err) });
      return;
    }
    this.relistTime = timestamp;
    m?.plegLastSeen.set(timestamp / 1000);
    this.records.setCurrent(pods);
    const changed = this.records.changed();
    const retry = this.needsReinspection;
    this.needsReinspection = new Map();
    // Pods are inspected side by side (a burst of 30 pods must not wait on 30 serial inspections); each pod's
    // events are published as soon as its own inspection is in the cache. A pod the event path committed
    // since this listing is left alone: its news is newer than ours.
    await forEachLimit([...changed.keys()], this.config.inspectConcurrency, async (uid) => {
      if (this.records.version(uid) !== (versions.get(uid) ?? 0)) return;
      const current = this.records.current(uid);
      if (!(await this.refresh(uid, current, timestamp))) return;
      retry.delete(uid);
      if (this.records.version(uid) === (versions.get(uid) ?? 0)) this.commit(uid, current);
    });
    await forEachLimit([...retry], this.config.inspectConcurrency, ([uid, pod]) => this.refresh(uid, pod, timestamp).then(() => {}));
    this.deps.cache.updateTime(timestamp);
    const tookMs = this.deps.clock.monotonic() - start;
    m?.plegRelistDuration.observe(tookMs / 1000);
    if (changed.size > 0) this.log.debug('relist', { tookMs: Math.round(tookMs), podsChanged: changed.size });
  }

  /** Re-inspects a pod into the cache; false (and queued for the next relist) when inspection failed. */
  private async refresh(uid: string, pod: RuntimePod | undefined, timestamp: number): Promise<boolean> {
    if (!pod) {
      this.forget(uid, timestamp);
      return true;
    }
    try {
      this.cacheRead(uid, await this.deps.runtime.getPodStatus(uid, pod.name, pod.namespace), timestamp);
      return true;
    } catch (err) {
      this.failed(uid, pod, err as Error, timestamp);
      return false;
    }
  }

  /**
   * A read begun at `timestamp` found no pod: its entry goes, unless a read begun later is in the cache (a slow
   * read must not remove what a worker waits for); a worker waiting for news of the pod gets "gone".
   */
  private forget(uid: string, timestamp: number): void {
    this.deps.cache.delete(uid, timestamp);
  }

  private failed(uid: string, pod: RuntimePod, err: Error, timestamp: number): void {
    this.log.warn('PLEG: Ignoring events for pod', { pod: `${pod.namespace}/${pod.name}`, err: String(err) });
    this.needsReinspection.set(uid, pod);
    this.deps.cache.set(uid, this.deps.cache.get(uid).status, err, timestamp);
  }

  /** Moves the pod's published view forward and sends its transitions (channel, then bus). */
  private commit(uid: string, pod: RuntimePod | undefined): void {
    const { events, next, prev } = this.records.commit(uid, pod);
    const shown = next ?? prev;
    for (const e of events) {
      if (e.type !== 'ContainerChanged' && !this.channel.trySend(e)) this.deps.metrics?.plegDiscardEvents.inc();
      if (!this.deps.bus || !shown) continue;
      const containerName = containerNameIn(e.data, next, prev);
      this.deps.bus.publish({
        type: 'pleg',
        pod: { namespace: shown.namespace, name: shown.name, uid: shown.uid },
        pleg: e.type,
        containerId: e.data,
        ...(containerName !== undefined ? { containerName } : {}),
      });
    }
  }
}

/** Runs fn over items with at most `limit` in flight. */
async function forEachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
