/**
 * One list + watch loop (client-go's reflector, as the kubelet's pod source and service lister use it): list,
 * watch from the list's resourceVersion (bookmarks included), re-watch from the last RV when a stream ends,
 * relist at once on 410 Expired/Gone, relist after a doubling back-off (800 ms → 30 s by default) on any other
 * failure. The owner keeps the objects: it gets each list's items and each watch event.
 */
import type { ApiClient, ApiResult, WatchEnd, WatchEvent } from './types.ts';
import type { Clock } from '../util/clock.ts';

export interface ReflectorOptions<T> {
  client: ApiClient;
  clock: Clock;
  path: string;
  query?: Record<string, string>;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  /** A list answered: its items replace what the owner holds. */
  onList(items: T[]): void;
  /** A watch event (ADDED / MODIFIED / DELETED / BOOKMARK / ERROR); the RV is already tracked. */
  onEvent(e: WatchEvent<T>): void;
  /** A list failed; the reflector backs off and lists again. */
  onListError?(r: Extract<ApiResult<unknown>, { ok: false }>): void;
  /** A watch ended: fine (re-watch), expired (relist now) or failed (back off, relist). */
  onWatchEnd?(end: WatchEnd, outcome: 'ok' | 'expired' | 'failed'): void;
}

export class Reflector<T> {
  private rv = '';
  private backoffMs = 0;

  constructor(private readonly o: ReflectorOptions<T>) {}

  /** Runs until `signal` aborts; `listed` is called after every successful list. */
  async run(signal: AbortSignal, listed: () => void): Promise<void> {
    while (!signal.aborted) {
      if (!this.rv) {
        if (!(await this.list(signal))) {
          await this.pause(signal);
          continue;
        }
        listed();
      }
      const query = { ...this.o.query, resourceVersion: this.rv, allowWatchBookmarks: true, timeoutSeconds: 300 + Math.floor(Math.random() * 300) };
      const end = await this.o.client.watch<T>(this.o.path, query, (e) => this.onEvent(e), signal);
      if (signal.aborted) return;
      if (end.ok) {
        this.backoffMs = 0;
        this.o.onWatchEnd?.(end, 'ok');
        continue;
      }
      this.rv = '';
      const expired = end.status === 410 || end.reason === 'Expired' || end.reason === 'Gone';
      this.o.onWatchEnd?.(end, expired ? 'expired' : 'failed');
      if (!expired) await this.pause(signal);
    }
  }

  private async list(signal: AbortSignal): Promise<boolean> {
    const r = await this.o.client.request<{ items?: T[]; metadata?: { resourceVersion?: string } }>({ method: 'GET', path: this.o.path, ...(this.o.query ? { query: this.o.query } : {}), signal });
    if (!r.ok) {
      this.o.onListError?.(r);
      return false;
    }
    this.backoffMs = 0;
    this.rv = r.body.metadata?.resourceVersion ?? '';
    this.o.onList(r.body.items ?? []);
    return true;
  }

  private onEvent(e: WatchEvent<T>): void {
    const rv = (e.object as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
    if (rv) this.rv = rv;
    this.o.onEvent(e);
  }

  private async pause(signal: AbortSignal): Promise<void> {
    this.backoffMs = this.backoffMs === 0 ? (this.o.backoffInitialMs ?? 800) : Math.min(this.backoffMs * 2, this.o.backoffMaxMs ?? 30_000);
    await this.o.clock.sleep(this.backoffMs, signal).catch(() => undefined);
  }
}
