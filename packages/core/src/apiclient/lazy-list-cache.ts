/**
 * A lister over one API collection (client-go's informer cache, as the kubelet's service lister and RuntimeClass
 * manager use it): started lazily by the first caller, a Reflector keeps the objects (list, watch from its
 * resourceVersion, relist on 410 or after a back-off). Callers share one bounded wait for the first list; once
 * it is over nobody waits again. hasSynced once a list succeeded.
 */
import type { ApiClient, WatchEvent } from './types.ts';
import { Reflector } from './reflector.ts';
import type { Clock } from '../util/clock.ts';

export interface LazyListCacheOptions<T> {
  api: ApiClient;
  clock: Clock;
  /** The collection, e.g. /api/v1/services. */
  path: string;
  /** The key an object is stored under (namespace/name, or name for cluster-scoped objects). */
  key: (o: T) => string;
  /** How long the first caller waits for the first list (default 2 s). */
  firstListWaitMs?: number;
}

export class LazyListCache<T> {
  private readonly objects = new Map<string, T>();
  private synced = false;
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private firstList: Promise<void> | undefined;

  constructor(private readonly o: LazyListCacheOptions<T>) {}

  get hasSynced(): boolean {
    return this.synced;
  }

  /** Every object known; the first call starts the reflector. */
  async list(): Promise<T[]> {
    await this.started();
    return [...this.objects.values()];
  }

  /** The object stored under `key` (undefined when none is known). */
  async get(key: string): Promise<T | undefined> {
    await this.started();
    return this.objects.get(key);
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    await this.loop;
    this.loop = undefined;
  }

  private async started(): Promise<void> {
    if (!this.loop) {
      this.abort = new AbortController();
      let listed!: () => void;
      const first = new Promise<void>((r) => (listed = r));
      this.firstList = Promise.race([first, this.o.clock.sleep(this.o.firstListWaitMs ?? 2_000).catch(() => undefined)]);
      const reflector = new Reflector<T>({
        client: this.o.api,
        clock: this.o.clock,
        path: this.o.path,
        onList: (items) => this.onList(items),
        onEvent: (e) => this.onEvent(e),
      });
      this.loop = reflector.run(this.abort.signal, listed);
    }
    if (!this.synced) await this.firstList;
  }

  private onList(items: T[]): void {
    this.objects.clear();
    for (const x of items) this.objects.set(this.o.key(x), x);
    this.synced = true;
  }

  private onEvent(e: WatchEvent<T>): void {
    if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
    if (e.type === 'DELETED') this.objects.delete(this.o.key(e.object));
    else this.objects.set(this.o.key(e.object), e.object);
  }
}
