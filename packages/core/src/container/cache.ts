/**
 * The pod status cache (the kubelet's container cache): PLEG writes what it inspected after each relist;
 * pod workers read with getNewerThan so they never act on a status older than their last sync. Every entry is
 * stamped with the time its runtime read began; a write older than the entry it would replace is dropped (the
 * kubelet's cache.Set under EventedPLEG), so a slow read never undoes a newer one.
 */
import { emptyPodStatus, type NewerThanOptions, type PodStatus, type PodStatusCache } from './types.ts';

interface Entry {
  status: PodStatus;
  error?: Error;
  modified: number;
}

interface Waiter {
  minTime: number;
  podEntryOnly: boolean;
  resolve: (v: { status: PodStatus; error?: Error }) => void;
}

export class StatusCache implements PodStatusCache {
  private readonly pods = new Map<string, Entry>();
  private readonly waiters = new Map<string, Waiter[]>();
  /** uid → when the read began that found the pod gone (its entry removed): news for readers of older times. */
  private readonly gone = new Map<string, number>();
  /** Global timestamp: every pod's data is at least this fresh. -Infinity until the first relist. */
  private timestamp = Number.NEGATIVE_INFINITY;

  get(uid: string): Entry {
    return this.pods.get(uid) ?? { status: emptyPodStatus(uid), modified: Number.NEGATIVE_INFINITY };
  }

  getNewerThan(uid: string, minTime: number, opts: NewerThanOptions = {}): Promise<{ status: PodStatus; error?: Error }> {
    const podEntryOnly = opts.podEntryOnly ?? false;
    const hit = this.lookup(uid, minTime, podEntryOnly);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve) => {
      const list = this.waiters.get(uid) ?? [];
      list.push({ minTime, podEntryOnly, resolve });
      this.waiters.set(uid, list);
    });
  }

  set(uid: string, status: PodStatus, error: Error | undefined, timestamp: number): boolean {
    const cur = this.pods.get(uid);
    if (cur && cur.modified > timestamp) return false;
    this.pods.set(uid, { status: { ...status, timestamp }, error, modified: timestamp });
    this.gone.delete(uid);
    this.notify(uid);
    return true;
  }

  /**
   * `timestamp`: when the read began that found no pod. Dropped (false) when the entry is newer; else readers
   * waiting for news older than it get an empty status (the pod is gone), even those counting only the pod's entry.
   */
  delete(uid: string, timestamp?: number): boolean {
    const cur = this.pods.get(uid);
    if (timestamp !== undefined && cur && cur.modified > timestamp) return false;
    this.pods.delete(uid);
    if (timestamp === undefined) {
      this.gone.delete(uid);
      return true;
    }
    this.gone.set(uid, timestamp);
    this.notify(uid);
    return true;
  }

  updateTime(timestamp: number): void {
    this.timestamp = timestamp;
    for (const uid of [...this.waiters.keys()]) this.notify(uid);
  }

  /** Number of readers still waiting (for tests and diagnostics). */
  waiting(): number {
    let n = 0;
    for (const l of this.waiters.values()) n += l.length;
    return n;
  }

  private lookup(uid: string, minTime: number, podEntryOnly: boolean): { status: PodStatus; error?: Error } | undefined {
    const d = this.pods.get(uid);
    const globalNewer = !podEntryOnly && this.timestamp > minTime;
    if (!d && (globalNewer || (this.gone.get(uid) ?? Number.NEGATIVE_INFINITY) > minTime)) return { status: emptyPodStatus(uid) };
    if (d && (d.modified > minTime || globalNewer)) return { status: d.status, error: d.error };
    return undefined;
  }

  private notify(uid: string): void {
    const list = this.waiters.get(uid);
    if (!list) return;
    const still: Waiter[] = [];
    for (const w of list) {
      const hit = this.lookup(uid, w.minTime, w.podEntryOnly);
      if (hit) w.resolve(hit);
      else still.push(w);
    }
    if (still.length > 0) this.waiters.set(uid, still);
    else this.waiters.delete(uid);
  }
}
