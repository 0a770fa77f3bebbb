/**
 * The only place in core that touches wall time and timers. Every manager takes a Clock so that tests can
 * step time deterministically with FakeClock.
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Monotonic milliseconds (for durations). */
  monotonic(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  setInterval(fn: () => void, ms: number): TimerHandle;
  /** Resolves after ms, or rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Node's timers take at most 2^31-1 ms (about 24.8 days): a longer delay fires after 1 ms (TimeoutOverflowWarning). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** setTimeout for any delay: one Node timer after another while the delay is longer than MAX_TIMER_MS. */
function longTimeout(fn: () => void, ms: number, unref: boolean): () => void {
  let left = ms;
  let t: ReturnType<typeof setTimeout>;
  const arm = () => {
    const step = Math.min(left, MAX_TIMER_MS);
    left -= step;
    t = setTimeout(left > 0 ? arm : fn, step);
    if (unref) t.unref?.();
  };
  arm();
  return () => clearTimeout(t);
}

export const realClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout(fn, ms) {
    return { cancel: longTimeout(fn, ms, true) };
  },
  setInterval(fn, ms) {
    const t = setInterval(fn, ms);
    t.unref?.();
    return { cancel: () => clearInterval(t) };
  },
  sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const cancel = longTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms, false);
      const onAbort = () => {
        cancel();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};

interface PendingTimer {
  id: number;
  due: number;
  fn: () => void;
  every?: number;
}

/** A clock that only moves when step() is called. Timers fire in due order during step(). */
export class FakeClock implements Clock {
  private current: number;
  private mono = 0;
  private timers: PendingTimer[] = [];
  private nextId = 1;

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  monotonic(): number {
    return this.mono;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, ms);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, ms, Math.max(1, ms));
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const h = this.add(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        h.cancel();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Number of timers waiting to fire. */
  pending(): number {
    return this.timers.length;
  }

  /** Advance time by ms, firing every timer that comes due, in order. Awaits microtasks between timers. */
  async step(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      this.timers.sort((a, b) => a.due - b.due || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.due > target) break;
      this.mono += next.due - this.current;
      this.current = next.due;
      if (next.every !== undefined) next.due += next.every;
      else this.timers.shift();
      next.fn();
      await flushMicrotasks();
    }
    this.mono += target - this.current;
    this.current = target;
    await flushMicrotasks();
  }

  private add(fn: () => void, ms: number, every?: number): TimerHandle {
    const t: PendingTimer = { id: this.nextId++, due: this.current + Math.max(0, ms), fn, every };
    this.timers.push(t);
    return {
      cancel: () => {
        this.timers = this.timers.filter((x) => x !== t);
      },
    };
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await new Promise<void>((r) => setImmediate(r));
}
