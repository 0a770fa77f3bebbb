/**
 * A bounded FIFO between producers and one consumer, as a buffered Go channel used with a non-blocking send:
 * trySend drops the value (and counts it) when full, like the kubelet's PLEG channel.
 */
export class BoundedChannel<T> {
  private readonly buf: T[] = [];
  private waiters: Array<{ resolve: (v: IteratorResult<T>) => void; reject: (e: unknown) => void }> = [];
  private closedFlag = false;
  /** Values dropped because the channel was full (or closed). */
  dropped = 0;

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error(`invalid channel capacity ${capacity}`);
  }

  get length(): number {
    return this.buf.length;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Enqueues v; returns false (and counts a drop) when full or closed. */
  trySend(v: T): boolean {
    if (this.closedFlag) {
      this.dropped++;
      return false;
    }
    const w = this.waiters.shift();
    if (w) {
      w.resolve({ value: v, done: false });
      return true;
    }
    if (this.buf.length >= this.capacity) {
      this.dropped++;
      return false;
    }
    this.buf.push(v);
    return true;
  }

  /** Takes the next value without waiting. */
  tryReceive(): T | undefined {
    return this.buf.shift();
  }

  /** Resolves with the next value; done when closed and drained; rejects when signal aborts. */
  receive(signal?: AbortSignal): Promise<IteratorResult<T>> {
    if (this.buf.length > 0) return Promise.resolve({ value: this.buf.shift() as T, done: false });
    if (this.closedFlag) return Promise.resolve({ value: undefined, done: true });
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const w = {
        resolve: (r: IteratorResult<T>) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        reject,
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(w);
    });
  }

  /** Takes everything buffered. */
  drain(): T[] {
    return this.buf.splice(0);
  }

  /** Stops accepting values; waiting receivers get done once the buffer is empty. */
  close(): void {
    this.closedFlag = true;
    for (const w of this.waiters.splice(0)) w.resolve({ value: undefined, done: true });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const r = await this.receive();
      if (r.done) return;
      yield r.value;
    }
  }
}
