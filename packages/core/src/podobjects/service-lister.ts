/**
 * The kubelet's service lister (kubelet.go serviceLister: a reflector over every Service, API-server mode only)
 * for service environment variables. Started lazily by the first pod that asks: list, then watch from the
 * list's resourceVersion, relisting when the watch ends with an error or 410, after a doubling back-off
 * (800 ms → 30 s). hasSynced once a list succeeded (the kubelet's serviceHasSynced).
 */
import type { V1Service } from '@kubernetes/client-node';
import type { ApiClient, WatchEvent } from '../apiclient/types.ts';
import { Reflector } from '../apiclient/reflector.ts';
import type { Clock } from '../util/clock.ts';

export class ServiceLister {
  private readonly services = new Map<string, V1Service>();
  private synced = false;
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private firstList: Promise<void> | undefined;

  constructor(private readonly deps: { api: ApiClient; clock: Clock; /** How long the first caller waits for the first list (default 2 s). */ firstListWaitMs?: number }) {}

  get hasSynced(): boolean {
    return this.synced;
  }

  /** Every Service known; the first call starts the reflector; callers wait (once, bounded) for its first list. */
  async list(): Promise<V1Service[]> {
    if (!this.loop) {
      this.abort = new AbortController();
      let listed!: () => void;
      const first = new Promise<void>((r) => (listed = r));
      // Callers share one bounded wait for the first list; once it is over, nobody waits again.
      this.firstList = Promise.race([first, this.deps.clock.sleep(this.deps.firstListWaitMs ?? 2_000).catch(() => undefined)]);
      const reflector = new Reflector<V1Service>({
        client: this.deps.api,
        clock: this.deps.clock,
        path: '/api/v1/services',
        onList: (items) => this.onList(items),
        onEvent: (e) => this.onEvent(e),
      });
      this.loop = reflector.run(this.abort.signal, listed);
    }
    if (!this.synced) await this.firstList;
    return [...this.services.values()];
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    await this.loop;
    this.loop = undefined;
  }

  private onList(items: V1Service[]): void {
    this.services.clear();
    for (const s of items) this.services.set(keyOf(s), s);
    this.synced = true;
  }

  private onEvent(e: WatchEvent<V1Service>): void {
    if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
    if (e.type === 'DELETED') this.services.delete(keyOf(e.object));
    else this.services.set(keyOf(e.object), e.object);
  }
}

function keyOf(s: V1Service): string {
  return `${s.metadata?.namespace ?? ''}/${s.metadata?.name ?? ''}`;
}
