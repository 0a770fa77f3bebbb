/** Runs async tasks one at a time per key (tasks of different keys run concurrently). */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly counts = new Map<string, number>();

  /** Queues fn behind every earlier task of key; resolves/rejects with fn's outcome. */
  run<T>(key: string, fn: () => Promise<T> | T): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const result = prev.then(
      () => fn(),
      () => fn(),
    );
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    void tail.then(() => {
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left <= 0) {
        this.counts.delete(key);
        if (this.tails.get(key) === tail) this.tails.delete(key);
      } else this.counts.set(key, left);
    });
    return result;
  }

  /** Tasks queued or running for key. */
  pending(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** Keys with queued or running tasks. */
  keys(): string[] {
    return [...this.counts.keys()];
  }

  /** Resolves once every task queued so far has settled. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}
