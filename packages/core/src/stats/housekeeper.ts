/**
 * Housekeeping: samples every registered container on an interval (kubelet: 10 s, doubling up to 15 s
 * while nothing changes — cAdvisor's dynamic housekeeping — each wait stretched by cAdvisor's jitter(interval, 1.0): a
 * random 0–100 % more, so the containers' samples spread out and come every 15 s on average), keeps samples in time-bounded ring buffers
 * (2 min), and samples containers somebody watches at a fast rate, reference-counted: the last unwatch
 * drops back to the housekeeping rate (or to nothing when sampleUnwatched is false).
 *
 * One timer for all containers: each keeps its own due time, and a wake samples every container due now or within
 * its slack (a tenth of its wait, at most COALESCE_MS). A timer per container woke the process ≈ 15 times a second at
 * 110 pods (≈ 230 cgroups, each every 10–30 s); after a wake every container left is due more than its slack later,
 * so housekeeping wakes at most about once a second.
 */
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { jitter } from '../util/jitter.ts';
import { DEFAULT_MAX_AGE_MS, RingBuffer } from './ring-buffer.ts';
import type { Sampler } from './sampler.ts';
import type { ContainerSample, TrackedContainer } from './types.ts';

export interface HousekeeperConfig {
  intervalMs?: number;
  maxIntervalMs?: number;
  allowDynamic?: boolean;
  /** Rate for watched containers (cAdvisor's UI refreshes every second). */
  watchIntervalMs?: number;
  maxAgeMs?: number;
  /** false = containers nobody watches are not sampled at all. Default true (eviction needs them). */
  sampleUnwatched?: boolean;
  /** cAdvisor's jitter maxFactor for housekeeping waits (the kubelet: 1.0); default 0 (exact intervals). */
  jitterFactor?: number;
}

/**
 * How early a wake may take a container, at most: 1 s is the watched rate (a wake takes a watched container at most
 * a tenth of its 1 s early, so its rate stays ~1/s) and at most a tenth of the 10 s housekeeping wait, which cAdvisor's
 * jitter already stretches by 0–100 %; it bounds the wakes to about one a second whatever the number of containers.
 */
export const COALESCE_MS = 1_000;

export type SampleListener = (key: string, sample: ContainerSample) => void;

interface Entry {
  target: TrackedContainer;
  buffer: RingBuffer<ContainerSample>;
  intervalMs: number;
  /** When the next sample is due (clock ms); undefined: none scheduled (in flight, stopped or not sampled). */
  due?: number;
  /** How much earlier than `due` a wake may take it. */
  slack: number;
  listeners: Map<number, SampleListener | undefined>;
  inflight?: Promise<ContainerSample | undefined>;
}

export class Housekeeper {
  private readonly entries = new Map<string, Entry>();
  private running = false;
  /** The one timer, armed for the earliest due time. */
  private timer?: TimerHandle;
  private timerAt = Number.POSITIVE_INFINITY;
  private nextId = 1;
  /** Counts every change of what the housekeeper holds: a container tracked or dropped, a sample kept. */
  private changes = 0;
  private readonly cfg: Required<HousekeeperConfig>;

  constructor(
    private readonly deps: { clock: Clock; sampler: Sampler; logger: Logger; random?: () => number },
    config: HousekeeperConfig = {},
  ) {
    this.cfg = {
      intervalMs: config.intervalMs ?? 10_000,
      maxIntervalMs: config.maxIntervalMs ?? 15_000,
      allowDynamic: config.allowDynamic ?? true,
      watchIntervalMs: config.watchIntervalMs ?? 1_000,
      maxAgeMs: config.maxAgeMs ?? DEFAULT_MAX_AGE_MS,
      sampleUnwatched: config.sampleUnwatched ?? true,
      jitterFactor: config.jitterFactor ?? 0,
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    for (const e of this.entries.values()) this.schedule(e, 0);
  }

  stop(): void {
    this.running = false;
    for (const e of this.entries.values()) e.due = undefined;
    this.disarm();
  }

  /** Starts tracking a container (idempotent; a changed cgroup replaces the target). */
  register(target: TrackedContainer): void {
    const e = this.entries.get(target.key);
    if (e) {
      e.target = target;
      return;
    }
    const buffer = new RingBuffer<ContainerSample>(this.cfg.maxAgeMs, Math.ceil(this.cfg.maxAgeMs / Math.min(this.cfg.watchIntervalMs, this.cfg.intervalMs)) + 2);
    const entry: Entry = { target, buffer, intervalMs: this.cfg.intervalMs, slack: 0, listeners: new Map() };
    this.entries.set(target.key, entry);
    this.changes++;
    if (this.running) this.schedule(entry, 0);
  }

  unregister(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.due = undefined;
    this.entries.delete(key);
    if (this.entries.size === 0) this.disarm();
    this.changes++;
  }

  /** Changes whenever a container is tracked or dropped or a sample is kept (a key for what is built from them). */
  version(): number {
    return this.changes;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  target(key: string): TrackedContainer | undefined {
    return this.entries.get(key)?.target;
  }

  /** Watches a container: fast sampling while at least one watcher remains. Returns unwatch (idempotent). */
  watch(key: string, listener?: SampleListener): () => void {
    const e = this.entries.get(key);
    if (!e) return () => {};
    const id = this.nextId++;
    e.listeners.set(id, listener);
    if (e.listeners.size === 1 && this.running) this.schedule(e, 0);
    return () => {
      if (!e.listeners.delete(id)) return;
      if (e.listeners.size === 0 && this.running && this.entries.get(key) === e) this.schedule(e, this.delay(e));
    };
  }

  watchers(key: string): number {
    return this.entries.get(key)?.listeners.size ?? 0;
  }

  latest(key: string): ContainerSample | undefined {
    return this.entries.get(key)?.buffer.latest();
  }

  previous(key: string): ContainerSample | undefined {
    return this.entries.get(key)?.buffer.previous();
  }

  history(key: string, since?: number, limit?: number): ContainerSample[] {
    return this.entries.get(key)?.buffer.items(since, limit) ?? [];
  }

  /** Current interval of a container (for tests and the console). */
  intervalOf(key: string): number | undefined {
    return this.entries.get(key)?.intervalMs;
  }

  /** Resolves when every in-flight sample has finished (tests, orderly shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.inflight));
  }

  /** Samples now (forced stats update); shares an in-flight sample. */
  sampleNow(key: string): Promise<ContainerSample | undefined> {
    const e = this.entries.get(key);
    if (!e) return Promise.resolve(undefined);
    e.inflight ??= this.sample(e).finally(() => {
      e.inflight = undefined;
    });
    return e.inflight;
  }

  private delay(e: Entry): number | undefined {
    if (e.listeners.size > 0) return this.cfg.watchIntervalMs;
    if (!this.cfg.sampleUnwatched) return undefined;
    // cAdvisor's jitter(d, maxFactor), as wait.Jitter.
    return this.cfg.jitterFactor > 0 ? jitter(e.intervalMs, this.cfg.jitterFactor, this.deps.random) : e.intervalMs;
  }

  private disarm(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  /** Due in `ms` (undefined: not at all); the timer moves earlier when this is the earliest due time. */
  private schedule(e: Entry, ms: number | undefined): void {
    e.due = undefined;
    if (ms === undefined || !this.running) return;
    const now = this.deps.clock.now();
    e.due = now + ms;
    e.slack = Math.min(COALESCE_MS, ms / 10);
    if (e.due < this.timerAt) this.arm(e.due, now);
  }

  private arm(at: number, now: number): void {
    this.timer?.cancel();
    this.timerAt = at;
    this.timer = this.deps.clock.setTimeout(() => this.wake(), Math.max(0, at - now));
  }

  /** Samples every container due within its slack; the timer is armed again for the earliest due time left. */
  private wake(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.deps.clock.now();
    let next = Number.POSITIVE_INFINITY;
    for (const e of this.entries.values()) {
      if (e.due === undefined) continue;
      if (e.due - e.slack <= now) {
        e.due = undefined;
        void this.sampleNow(e.target.key).then(() => {
          // Not when a watch or unwatch scheduled it meanwhile, nor once it is dropped.
          if (this.entries.get(e.target.key) === e && e.due === undefined) this.schedule(e, this.delay(e));
        });
      } else if (e.due < next) next = e.due;
    }
    if (next < this.timerAt && this.running) this.arm(next, now);
  }

  private async sample(e: Entry): Promise<ContainerSample | undefined> {
    let s: ContainerSample | undefined;
    try {
      s = await this.deps.sampler(e.target);
    } catch (err) {
      this.deps.logger.warn('housekeeping sample failed', { key: e.target.key, err: (err as Error).message });
      return undefined;
    }
    if (!s) return undefined;
    const prev = e.buffer.latest();
    e.buffer.push(s);
    this.changes++;
    this.adjustInterval(e, prev, s);
    for (const l of e.listeners.values()) {
      try {
        l?.(e.target.key, s);
      } catch (err) {
        this.deps.logger.warn('sample listener threw', { key: e.target.key, err: (err as Error).message });
      }
    }
    return s;
  }

  private adjustInterval(e: Entry, prev: ContainerSample | undefined, cur: ContainerSample): void {
    if (!this.cfg.allowDynamic || !prev) return;
    const unchanged = prev.cpu?.usageNanoseconds === cur.cpu?.usageNanoseconds && prev.memory?.usageBytes === cur.memory?.usageBytes;
    e.intervalMs = unchanged ? Math.min(this.cfg.maxIntervalMs, e.intervalMs * 2) : this.cfg.intervalMs;
  }
}
