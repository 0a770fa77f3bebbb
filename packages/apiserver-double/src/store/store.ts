/**
 * Raw storage of the double: one global, monotonically increasing resourceVersion (like an etcd revision),
 * objects by resource and key, and a bounded window of change events for watches. Holds no API semantics
 * (those live in registry.ts); every value going in or out is deep-copied.
 */
import type { KubeObject } from '../resources.ts';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ChangeEvent {
  rv: number;
  /** resourceKey(): `pods`, `leases.coordination.k8s.io` */
  resource: string;
  key: string;
  type: ChangeType;
  object: KubeObject;
  /** The object before this change (MODIFIED, DELETED). */
  prev?: KubeObject;
}

export interface RawStoreOptions {
  /** Number of change events kept for watches and exact-RV lists (the watch cache window). */
  historyWindow?: number;
  /** The first resourceVersion handed out is startRv + 1. */
  startRv?: number;
}

export const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export class RawStore {
  private rv: number;
  private readonly data = new Map<string, Map<string, KubeObject>>();
  private history: ChangeEvent[] = [];
  /** Every change with rv <= compactedRv has left the window. */
  private compactedRv: number;
  private readonly listeners = new Set<(e: ChangeEvent) => void>();
  private readonly window: number;

  constructor(opts: RawStoreOptions = {}) {
    this.rv = opts.startRv ?? 1000;
    this.compactedRv = this.rv;
    this.window = Math.max(1, opts.historyWindow ?? 1000);
  }

  currentRv(): number {
    return this.rv;
  }

  /** The newest RV whose following changes are no longer all known (too old to watch from). */
  compacted(): number {
    return this.compactedRv;
  }

  get(resource: string, key: string): KubeObject | undefined {
    return clone(this.data.get(resource)?.get(key));
  }

  /** Objects sorted by key (etcd key order), optionally within one namespace. */
  list(resource: string, namespace?: string): KubeObject[] {
    const m = this.data.get(resource);
    if (!m) return [];
    const keys = [...m.keys()].filter((k) => !namespace || k.startsWith(`${namespace}/`)).sort();
    return keys.map((k) => clone(m.get(k)!));
  }

  /** The state of a resource at an older RV, rebuilt by undoing later changes; undefined when compacted. */
  listAt(resource: string, rv: number, namespace?: string): KubeObject[] | undefined {
    if (rv < this.compactedRv) return undefined;
    const m = new Map<string, KubeObject>((this.data.get(resource) ?? new Map()).entries());
    for (let i = this.history.length - 1; i >= 0; i--) {
      const e = this.history[i]!;
      if (e.rv <= rv) break;
      if (e.resource !== resource) continue;
      if (e.type === 'ADDED') m.delete(e.key);
      else m.set(e.key, e.prev!);
    }
    return [...m.keys()]
      .filter((k) => !namespace || k.startsWith(`${namespace}/`))
      .sort()
      .map((k) => clone(m.get(k)!));
  }

  /** Store an object (create or replace), stamping a fresh resourceVersion. Returns the stored copy. */
  put(resource: string, key: string, obj: KubeObject): KubeObject {
    const m = this.data.get(resource) ?? new Map<string, KubeObject>();
    this.data.set(resource, m);
    const prev = m.get(key);
    const stored = clone(obj);
    stored.metadata.resourceVersion = String(++this.rv);
    m.set(key, stored);
    this.record({ rv: this.rv, resource, key, type: prev ? 'MODIFIED' : 'ADDED', object: stored, prev });
    return clone(stored);
  }

  /** Remove an object; the DELETED event carries its last state with the deletion's resourceVersion. */
  remove(resource: string, key: string, finalState?: KubeObject): KubeObject | undefined {
    const m = this.data.get(resource);
    const prev = m?.get(key);
    if (!m || !prev) return undefined;
    m.delete(key);
    const last = clone(finalState ?? prev);
    last.metadata.resourceVersion = String(++this.rv);
    this.record({ rv: this.rv, resource, key, type: 'DELETED', object: last, prev });
    return clone(last);
  }

  /** Changes to one resource after rv, or 'expired' when the window no longer reaches back to rv. */
  changesSince(resource: string, rv: number): ChangeEvent[] | 'expired' {
    if (rv < this.compactedRv) return 'expired';
    return this.history.filter((e) => e.rv > rv && e.resource === resource).map((e) => clone(e));
  }

  subscribe(fn: (e: ChangeEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Drop the whole event window (as an etcd compaction would): older RVs become "too old". */
  compact(): void {
    this.history = [];
    this.compactedRv = this.rv;
  }

  private record(e: ChangeEvent): void {
    this.history.push(e);
    while (this.history.length > this.window) this.compactedRv = this.history.shift()!.rv;
    for (const fn of [...this.listeners]) fn(clone(e));
  }
}
