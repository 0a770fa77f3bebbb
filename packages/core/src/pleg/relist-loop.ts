/**
 * When the generic PLEG (generic-pleg.ts) relists: every relist period on a timer, at once when asked
 * (`relistSoon`, calls during a relist coalescing into one more after it), with the period and health threshold
 * the evented PLEG switches (`setPeriod`); and whether it is healthy (the last successful relist within the
 * threshold). What a relist does is the PLEG's `doRelist`.
 */
import type { Clock, TimerHandle } from '../util/clock.ts';
import { formatGoDuration } from '../container/go-duration.ts';
import type { GenericPlegConfig, PlegHealth } from './types.ts';

export abstract class RelistLoop {
  private timer: TimerHandle | undefined;
  private running = false;
  private relisting: Promise<void> | undefined;
  /** Epoch ms of the last successful relist (undefined = never). */
  protected relistTime: number | undefined;
  /** A relist was asked for while one ran: run again when it ends. */
  private dirty = false;

  constructor(
    private readonly clock: Clock,
    protected config: GenericPlegConfig,
  ) {}

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

  healthy(): PlegHealth {
    if (this.relistTime === undefined) return { ok: false, message: 'pleg has yet to be successful' };
    const elapsed = this.clock.now() - this.relistTime;
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

  /** A relist is in flight or asked for. */
  get busy(): boolean {
    return this.relisting !== undefined || this.dirty;
  }

  get relistPeriodMs(): number {
    return this.config.relistPeriodMs;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.relist().finally(() => {
        if (!this.timer) this.schedule(this.config.relistPeriodMs);
      });
    }, ms);
  }

  /** One relist: lists the pods, inspects those that changed and publishes their transitions. */
  protected abstract doRelist(): Promise<void>;
}
