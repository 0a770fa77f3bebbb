/**
 * client-go's token-bucket rate limiter (kubeAPIQPS / kubeAPIBurst): `wait()` resolves when a token is
 * available, in FIFO order, on an injected clock. qps <= 0 disables limiting.
 */
import type { Clock } from '../util/clock.ts';

export class BlockingTokenBucket {
  private tokens: number;
  private last: number;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly clock: Clock,
    private readonly qps: number,
    private readonly burst: number,
  ) {
    this.tokens = Math.max(1, burst);
    this.last = clock.monotonic();
  }

  /** Takes one token, waiting for it if needed. */
  wait(signal?: AbortSignal): Promise<void> {
    if (!(this.qps > 0)) return Promise.resolve();
    const next = this.tail.then(() => this.take(signal));
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async take(signal?: AbortSignal): Promise<void> {
    this.refill();
    if (this.tokens < 1) {
      const waitMs = Math.ceil(((1 - this.tokens) / this.qps) * 1000);
      await this.clock.sleep(waitMs, signal);
      this.refill();
    }
    this.tokens -= 1;
  }

  private refill(): void {
    const now = this.clock.monotonic();
    this.tokens = Math.min(Math.max(1, this.burst), this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
  }
}
