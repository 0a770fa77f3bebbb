/**
 * Generic PLEG (the kubelet's generic.go): every relist period list all pods from the runtime, diff each
 * container's state against the previous relist, refresh the status cache for pods that changed, and send
 * ContainerStarted / ContainerDied / ContainerRemoved events (ContainerChanged only goes to the bus).
 */
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { EventBus, PlegEventType } from '../events/types.ts';
import type { PodStatusCache, Runtime, RuntimePod } from '../container/types.ts';
import { BoundedChannel } from '../util/bounded-channel.ts';
import { formatGoDuration } from '../container/go-duration.ts';
import {
  DEFAULT_GENERIC_PLEG_CONFIG,
  type GenericPlegConfig,
  type PlegHealth,
  type PlegMetrics,
  type PodLifecycleEvent,
  type PodLifecycleEventGenerator,
} from './types.ts';

export interface GenericPlegDeps {
  runtime: Runtime;
  cache: PodStatusCache;
  clock: Clock;
  logger: Logger;
  bus?: EventBus;
  metrics?: PlegMetrics;
}

/** PLEG's view of a container: runtime 'created' counts as unknown, as upstream. */
type PlegState = 'running' | 'exited' | 'unknown' | 'non-existent';

interface PodRecord {
  old?: RuntimePod;
  current?: RuntimePod;
}

export class GenericPleg implements PodLifecycleEventGenerator {
  private config: GenericPlegConfig;
  private readonly channel: BoundedChannel<PodLifecycleEvent>;
  private readonly records = new Map<string, PodRecord>();
  private readonly log: Logger;
  private timer: TimerHandle | undefined;
  private running = false;
  private relisting: Promise<void> | undefined;
  /** Epoch ms of the last successful relist (undefined = never). */
  private relistTime: number | undefined;
  private needsReinspection = new Map<string, RuntimePod>();
  /** A relist was asked for while one ran: run again when it ends. */
  private dirty = false;
  /** Monotonic ms of the last relist start (for kubelet_pleg_relist_interval_seconds). */
  private lastRelistStart: number | undefined;

  constructor(
    private readonly deps: GenericPlegDeps,
    config: Partial<GenericPlegConfig> = {},
  ) {
    this.config = { ...DEFAULT_GENERIC_PLEG_CONFIG, ...config };
    this.channel = new BoundedChannel(this.config.channelCapacity);
    this.log = deps.logger.child('pleg');
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    this.timer?.cancel();
    this.timer = undefined;
  }

  watch(): BoundedChannel<PodLifecycleEvent> {
    return this.channel;
  }

  /** Events dropped because the channel was full. */
  get discarded(): number {
    return this.channel.dropped;
  }

  healthy(): PlegHealth {
    if (this.relistTime === undefined) return { ok: false, message: 'pleg has yet to be successful' };
    const elapsed = this.deps.clock.now() - this.relistTime;
    if (elapsed > this.config.relistThresholdMs) {
      const msg = `pleg was last seen active ${formatGoDuration(elapsed)} ago; threshold is ${formatGoDuration(this.config.relistThresholdMs)}`;
      return { ok: false, message: msg };
    }
    return { ok: true };
  }

  /** Last successful relist (epoch ms). */
  lastRelist(): number | undefined {
    return this.relistTime;
  }

  async updateCache(uid: string, name: string, namespace: string): Promise<void> {
    const timestamp = this.deps.clock.now();
    try {
      const status = await this.deps.runtime.getPodStatus(uid, name, namespace);
      this.deps.cache.set(uid, status, undefined, timestamp);
    } catch (err) {
      const prev = this.deps.cache.get(uid).status;
      this.deps.cache.set(uid, prev, err as Error, timestamp);
    }
  }

  /** One relist; concurrent calls share the one in flight. */
  relist(): Promise<void> {
    this.relisting ??= this.doRelist().finally(() => (this.relisting = undefined));
    return this.relisting;
  }

  /**
   * Relists now, off the timer (the evented PLEG calls this on every runtime event). Calls during a relist
   * coalesce into one more relist after it, so a change that raced the one in flight is never missed.
   */
  relistSoon(): Promise<void> {
    if (!this.relisting) return this.relist();
    this.dirty = true;
    return this.relisting.then(() => {
      if (!this.dirty) return;
      this.dirty = false;
      return this.relist();
    });
  }

  /** Changes the relist period and health threshold; the next timer relist is one new period from now. */
  setPeriod(relistPeriodMs: number, relistThresholdMs: number): void {
    this.config = { ...this.config, relistPeriodMs, relistThresholdMs };
    if (this.running && this.timer) {
      this.timer.cancel();
      this.schedule(relistPeriodMs);
    }
  }

  /** Pods whose last inspection failed (retried on every relist). */
  get pendingReinspection(): number {
    return this.needsReinspection.size;
  }

  /** A relist is in flight or asked for. */
  get busy(): boolean {
    return this.relisting !== undefined || this.dirty;
  }

  get relistPeriodMs(): number {
    return this.config.relistPeriodMs;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined;
      void this.relist().finally(() => {
        if (!this.timer) this.schedule(this.config.relistPeriodMs);
      });
    }, ms);
  }

  private async doRelist(): Promise<void> {
    const timestamp = this.deps.clock.now();
    const start = this.deps.clock.monotonic();
    const m = this.deps.metrics;
    if (this.lastRelistStart !== undefined) m?.plegRelistInterval.observe((start - this.lastRelistStart) / 1000);
    this.lastRelistStart = start;
    let pods: RuntimePod[];
    try {
      pods = await this.deps.runtime.getPods(true);
    } catch (err) {
      this.log.warn('GenericPLEG: Unable to retrieve pods', { err: String(err) });
      return;
    }
    this.relistTime = timestamp;
    m?.plegLastSeen.set(timestamp / 1000);
    this.setCurrent(pods);
    const eventsByPod = new Map<string, PodLifecycleEvent[]>();
    for (const [uid, rec] of this.records) {
      const events = computePodEvents(uid, rec.old, rec.current);
      if (events.length > 0) eventsByPod.set(uid, events);
    }
    const retry = this.needsReinspection;
    this.needsReinspection = new Map();
    // Pods are inspected side by side (a burst of 30 pods must not wait on 30 serial inspections); each pod's
    // events are published as soon as its own inspection is in the cache.
    await forEachLimit([...eventsByPod], this.config.inspectConcurrency, async ([uid, events]) => {
      const rec = this.records.get(uid);
      if (!(await this.refresh(uid, rec?.current, timestamp))) return;
      retry.delete(uid);
      this.publish(rec, events);
      if (rec) {
        rec.old = rec.current;
        if (!rec.current) this.records.delete(uid);
      }
    });
    await forEachLimit([...retry], this.config.inspectConcurrency, ([uid, pod]) => this.refresh(uid, pod, timestamp).then(() => {}));
    this.deps.cache.updateTime(timestamp);
    const tookMs = this.deps.clock.monotonic() - start;
    m?.plegRelistDuration.observe(tookMs / 1000);
    if (eventsByPod.size > 0) this.log.debug('relist', { tookMs: Math.round(tookMs), podsChanged: eventsByPod.size });
  }

  /** Re-inspects a pod into the cache; false (and queued for the next relist) when inspection failed. */
  private async refresh(uid: string, pod: RuntimePod | undefined, timestamp: number): Promise<boolean> {
    if (!pod) {
      this.deps.cache.delete(uid);
      return true;
    }
    try {
      const status = await this.deps.runtime.getPodStatus(uid, pod.name, pod.namespace);
      this.deps.cache.set(uid, status, undefined, timestamp);
      return true;
    } catch (err) {
      this.log.warn('PLEG: Ignoring events for pod', { pod: `${pod.namespace}/${pod.name}`, err: String(err) });
      this.needsReinspection.set(uid, pod);
      this.deps.cache.set(uid, this.deps.cache.get(uid).status, err as Error, timestamp);
      return false;
    }
  }

  private setCurrent(pods: RuntimePod[]): void {
    for (const rec of this.records.values()) rec.current = undefined;
    for (const p of pods) {
      const rec = this.records.get(p.uid) ?? {};
      rec.current = p;
      this.records.set(p.uid, rec);
    }
  }

  private publish(rec: PodRecord | undefined, events: PodLifecycleEvent[]): void {
    const pod = rec?.current ?? rec?.old;
    for (const e of events) {
      if (e.type !== 'ContainerChanged' && !this.channel.trySend(e)) this.deps.metrics?.plegDiscardEvents.inc();
      if (!this.deps.bus || !pod) continue;
      const containerName = containerNameOf(rec, e.data);
      this.deps.bus.publish({
        type: 'pleg',
        pod: { namespace: pod.namespace, name: pod.name, uid: pod.uid },
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

function containerNameOf(rec: PodRecord | undefined, id: string): string | undefined {
  for (const p of [rec?.current, rec?.old]) {
    const c = p?.containers.find((x) => x.id.id === id);
    if (c) return c.name;
  }
  return undefined;
}

/** Events for every container (and sandbox) of one pod between two relists. */
export function computePodEvents(uid: string, oldPod: RuntimePod | undefined, newPod: RuntimePod | undefined): PodLifecycleEvent[] {
  const ids: string[] = [];
  for (const p of [oldPod, newPod]) {
    for (const c of p?.containers ?? []) if (!ids.includes(c.id.id)) ids.push(c.id.id);
    for (const s of p?.sandboxes ?? []) if (!ids.includes(s.id.id)) ids.push(s.id.id);
  }
  const out: PodLifecycleEvent[] = [];
  for (const id of ids) {
    for (const type of generateEvents(stateOf(oldPod, id), stateOf(newPod, id))) out.push({ uid, type, data: id });
  }
  return out;
}

function stateOf(pod: RuntimePod | undefined, id: string): PlegState {
  if (!pod) return 'non-existent';
  const c = pod.containers.find((x) => x.id.id === id);
  if (c) return c.state === 'running' ? 'running' : c.state === 'exited' ? 'exited' : 'unknown';
  const s = pod.sandboxes.find((x) => x.id.id === id);
  if (s) return s.state === 'ready' ? 'running' : 'exited';
  return 'non-existent';
}

export function generateEvents(oldState: PlegState, newState: PlegState): PlegEventType[] {
  if (oldState === newState) return [];
  switch (newState) {
    case 'running':
      return ['ContainerStarted'];
    case 'exited':
      return ['ContainerDied'];
    case 'unknown':
      return ['ContainerChanged'];
    case 'non-existent':
      return oldState === 'exited' ? ['ContainerRemoved'] : ['ContainerDied', 'ContainerRemoved'];
  }
}
