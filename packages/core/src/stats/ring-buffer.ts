/**
 * A time-bounded ring buffer of samples (cAdvisor keeps 2 minutes): items older than maxAgeMs before the
 * newest are dropped, and at most maxItems are kept. Samples are pushed in time order.
 */
export const DEFAULT_MAX_AGE_MS = 2 * 60_000;

export class RingBuffer<T extends { time: number }> {
  private buf: (T | undefined)[];
  private start = 0;
  private count = 0;

  constructor(
    readonly maxAgeMs = DEFAULT_MAX_AGE_MS,
    readonly maxItems = 256,
  ) {
    this.buf = new Array<T | undefined>(Math.max(1, maxItems));
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    const cap = this.buf.length;
    if (this.count === cap) {
      this.buf[this.start] = item;
      this.start = (this.start + 1) % cap;
    } else {
      this.buf[(this.start + this.count) % cap] = item;
      this.count++;
    }
    this.prune(item.time);
  }

  /** Drops items older than now − maxAgeMs. */
  prune(now: number): void {
    const cap = this.buf.length;
    while (this.count > 0) {
      const first = this.buf[this.start] as T;
      if (first.time >= now - this.maxAgeMs) break;
      this.buf[this.start] = undefined;
      this.start = (this.start + 1) % cap;
      this.count--;
    }
  }

  latest(): T | undefined {
    return this.count === 0 ? undefined : this.buf[(this.start + this.count - 1) % this.buf.length];
  }

  /** The one before the latest (for rates). */
  previous(): T | undefined {
    return this.count < 2 ? undefined : this.buf[(this.start + this.count - 2) % this.buf.length];
  }

  /** Items oldest first, optionally only those with time > since, and at most the last `limit`. */
  items(since?: number, limit?: number): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) {
      const it = this.buf[(this.start + i) % this.buf.length] as T;
      if (since === undefined || it.time > since) out.push(it);
    }
    return limit !== undefined && out.length > limit ? out.slice(out.length - limit) : out;
  }

  clear(): void {
    this.buf = new Array<T | undefined>(this.buf.length);
    this.start = 0;
    this.count = 0;
  }
}
