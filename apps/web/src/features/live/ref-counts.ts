/**
 * Reference counts of watched keys (metrics stream keys, the probe every-run request): several components may
 * watch the same key; the agent is told only when the union changes (first watcher in, last watcher out).
 */
export class RefCounts {
  private readonly counts = new Map<string, number>();

  /** Adds one reference per key; true when a key was not watched before (the union changed). */
  add(keys: readonly string[]): boolean {
    let changed = false;
    for (const k of new Set(keys)) {
      const n = this.counts.get(k) ?? 0;
      if (n === 0) changed = true;
      this.counts.set(k, n + 1);
    }
    return changed;
  }

  /** Drops one reference per key; true when a key lost its last watcher. */
  remove(keys: readonly string[]): boolean {
    let changed = false;
    for (const k of new Set(keys)) {
      const n = this.counts.get(k);
      if (n === undefined) continue;
      if (n <= 1) {
        this.counts.delete(k);
        changed = true;
      } else {
        this.counts.set(k, n - 1);
      }
    }
    return changed;
  }

  keys(): string[] {
    return [...this.counts.keys()].sort();
  }

  has(key: string): boolean {
    return this.counts.has(key);
  }
}
