/** Fan-out of values to any number of async-iterator subscribers; each ends on abort or throws on break(). */
export class EventHub<T> {
  private subs = new Set<Subscriber<T>>();

  /** Number of live subscribers. */
  get size(): number {
    return this.subs.size;
  }

  publish(value: T): void {
    for (const s of this.subs) s.push({ value });
  }

  /** Ends every open subscription with `err` (simulates a broken stream). */
  break(err: Error): void {
    for (const s of this.subs) s.push({ error: err });
    this.subs.clear();
  }

  async *subscribe(signal?: AbortSignal): AsyncGenerator<T> {
    if (signal?.aborted) return;
    const sub = new Subscriber<T>();
    this.subs.add(sub);
    const onAbort = () => sub.push({ end: true });
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const item = await sub.next();
        if ('end' in item) return;
        if ('error' in item) throw item.error;
        yield item.value;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.subs.delete(sub);
    }
  }
}

type Item<T> = { value: T } | { error: Error } | { end: true };

class Subscriber<T> {
  private queue: Item<T>[] = [];
  private waiter: ((item: Item<T>) => void) | undefined;

  push(item: Item<T>): void {
    const w = this.waiter;
    if (w) {
      this.waiter = undefined;
      w(item);
    } else {
      this.queue.push(item);
    }
  }

  next(): Promise<Item<T>> {
    const head = this.queue.shift();
    if (head) return Promise.resolve(head);
    return new Promise((resolve) => (this.waiter = resolve));
  }
}
