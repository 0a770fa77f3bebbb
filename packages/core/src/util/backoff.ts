/**
 * Per-key exponential backoff, as the kubelet's flowcontrol.Backoff: the first next() of a key yields the
 * initial duration, each further next() doubles it up to max. A key left alone for more than 2×max is
 * forgotten (its backoff restarts at initial): a container that ran 10 minutes cleanly loses its
 * CrashLoopBackOff history.
 */
import type { Clock } from './clock.ts';

export interface BackoffConfig {
  /** First delay, ms (kubelet: 10 s for containers and image pulls). */
  initialMs: number;
  /** Cap, ms (kubelet: 300 s). */
  maxMs: number;
}

interface Entry {
  backoffMs: number;
  lastUpdate: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly config: BackoffConfig,
  ) {
    if (config.initialMs <= 0 || config.maxMs < config.initialMs) {
      throw new Error(`invalid backoff ${config.initialMs}ms..${config.maxMs}ms`);
    }
  }

  /** Current backoff duration of key in ms (0 when unknown). */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }

  /**
   * Records a failure at `eventTime` (default now): starts at initial, doubles otherwise, capped at max. If the
   * previous update is more than 2×max before eventTime the entry restarts at initial. Returns the new delay.
   */
  next(key: string, eventTime: number = this.clock.now()): number {
    const e = this.entries.get(key);
    let backoffMs: number;
    if (!e || this.hasExpired(eventTime, e.lastUpdate)) backoffMs = this.config.initialMs;
    else backoffMs = Math.min(e.backoffMs * 2, this.config.maxMs);
    this.entries.set(key, { backoffMs, lastUpdate: this.clock.now() });
    return backoffMs;
  }

  /** True when now − eventTime is still shorter than the key's backoff (and the entry has not expired). */
  isInBackOffSince(key: string, eventTime: number): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    const now = this.clock.now();
    if (this.hasExpired(now, e.lastUpdate)) return false;
    return now - eventTime < e.backoffMs;
  }

  /** True when eventTime − lastUpdate is shorter than the key's backoff. */
  isInBackOffSinceUpdate(key: string, eventTime: number): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    if (this.hasExpired(eventTime, e.lastUpdate)) return false;
    return eventTime - e.lastUpdate < e.backoffMs;
  }

  /** Ms until the key leaves backoff, counted from eventTime (0 when not in backoff). */
  remaining(key: string, eventTime: number): number {
    if (!this.isInBackOffSince(key, eventTime)) return 0;
    return Math.max(0, (this.entries.get(key)?.backoffMs ?? 0) - (this.clock.now() - eventTime));
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  /** Drops entries not updated for more than 2×max. */
  gc(): number {
    const now = this.clock.now();
    let n = 0;
    for (const [k, e] of this.entries) {
      if (this.hasExpired(now, e.lastUpdate)) {
        this.entries.delete(k);
        n++;
      }
    }
    return n;
  }

  get size(): number {
    return this.entries.size;
  }

  private hasExpired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > this.config.maxMs * 2;
  }
}

export const CONTAINER_BACKOFF: BackoffConfig = { initialMs: 10_000, maxMs: 300_000 };
export const IMAGE_BACKOFF: BackoffConfig = { initialMs: 10_000, maxMs: 300_000 };
