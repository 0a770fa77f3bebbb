/**
 * The kubelet's service lister (kubelet.go serviceLister: a reflector over every Service, API-server mode only)
 * for service environment variables. Started lazily by the first pod that asks: list, then watch from the
 * list's resourceVersion, relisting when the watch ends with an error or 410, after a doubling back-off
 * (800 ms → 30 s). hasSynced once a list succeeded (the kubelet's serviceHasSynced).
 */
import type { V1Service, V1ServiceList } from '@kubernetes/client-node';
import type { ApiClient, WatchEvent } from '../apiclient/types.ts';
import type { Clock } from '../util/clock.ts';

export class ServiceLister {
  private readonly services = new Map<string, V1Service>();
  private rv = '';
  private synced = false;
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private firstList: Promise<void> | undefined;
  private backoffMs = 0;

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
      this.loop = this.run(this.abort.signal, listed);
    }
    if (!this.synced) await this.firstList;
    return [...this.services.values()];
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    await this.loop;
    this.loop = undefined;
  }

  private async run(signal: AbortSignal, listed: () => void): Promise<void> {
    while (!signal.aborted) {
      if (!this.rv && !(await this.relist(signal))) {
        await this.pause(signal);
        continue;
      }
      listed();
      const end = await this.deps.api.watch<V1Service>('/api/v1/services', { resourceVersion: this.rv, allowWatchBookmarks: true, timeoutSeconds: 300 + Math.floor(Math.random() * 300) }, (e) => this.onEvent(e), signal);
      if (signal.aborted) return;
      if (end.ok) continue;
      this.rv = '';
      if (end.status !== 410 && end.reason !== 'Expired' && end.reason !== 'Gone') await this.pause(signal);
    }
  }

  private async relist(signal: AbortSignal): Promise<boolean> {
    const r = await this.deps.api.request<V1ServiceList>({ method: 'GET', path: '/api/v1/services', signal });
    if (!r.ok) return false;
    this.services.clear();
    for (const s of r.body.items ?? []) this.services.set(keyOf(s), s);
    this.rv = r.body.metadata?.resourceVersion ?? '';
    this.synced = true;
    this.backoffMs = 0;
    return true;
  }

  private onEvent(e: WatchEvent<V1Service>): void {
    const rv = e.object.metadata?.resourceVersion;
    if (rv) this.rv = rv;
    if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
    if (e.type === 'DELETED') this.services.delete(keyOf(e.object));
    else this.services.set(keyOf(e.object), e.object);
  }

  private async pause(signal: AbortSignal): Promise<void> {
    this.backoffMs = this.backoffMs === 0 ? 800 : Math.min(this.backoffMs * 2, 30_000);
    await this.deps.clock.sleep(this.backoffMs, signal).catch(() => undefined);
  }
}

function keyOf(s: V1Service): string {
  return `${s.metadata?.namespace ?? ''}/${s.metadata?.name ?? ''}`;
}
