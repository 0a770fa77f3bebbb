/** A token bucket on an injected clock (client-go's flowcontrol rate limiter, non-blocking tryAccept). */
import type { Clock } from '../util/clock.ts';

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly clock: Clock,
    private readonly qps: number,
    private readonly burst: number,
  ) {
    if (!(qps > 0) || !(burst >= 1)) throw new Error(`invalid token bucket qps=${qps} burst=${burst}`);
    this.tokens = burst;
    this.last = clock.monotonic();
  }

  /** Takes a token if one is available. */
  tryAccept(): boolean {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  available(): number {
    this.refill();
    return Math.floor(this.tokens);
  }

  private refill(): void {
    const now = this.clock.monotonic();
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.qps);
  }
}
