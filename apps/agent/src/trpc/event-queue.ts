/** A bounded async queue fed by the event bus and drained by a subscription; ends when the signal aborts. */
export class EventQueue<T> {
  private items: T[] = [];
  private wake: (() => void) | undefined;
  dropped = 0;

  constructor(private readonly capacity = 1000) {}

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.capacity) {
      this.items.shift();
      this.dropped++;
    }
    this.wake?.();
  }

  async *drain(signal: AbortSignal | undefined): AsyncGenerator<T> {
    const onAbort = () => this.wake?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      while (!signal?.aborted) {
        const next = this.items.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        this.wake = undefined;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
