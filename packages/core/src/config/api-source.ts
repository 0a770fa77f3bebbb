/**
 * The API server pod source (the kubelet's NewSourceApiserver): list + watch of pods with
 * spec.nodeName=<node>, tracking resourceVersion (bookmarks included), re-watching from the last RV when a
 * stream ends, relisting on 410 Expired/Gone, reconnecting with a doubling back-off (800 ms → 30 s). Like the
 * undelta store upstream, every change reports the source's full pod set (op SET) to PodConfig.
 */
import type { V1Pod, V1PodList } from '@kubernetes/client-node';
import type { ApiClient, WatchEvent } from '../apiclient/types.ts';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { PodSource, PodSourceCallbacks } from './types.ts';

export interface ApiSourceDeps extends PodSourceCallbacks {
  client: ApiClient;
  clock: Clock;
  logger?: Logger;
}

export interface ApiSourceConfig {
  nodeName: string;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
}

export class ApiPodSource implements PodSource {
  readonly name = 'api' as const;
  private readonly pods = new Map<string, V1Pod>();
  private rv = '';
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private backoffMs = 0;
  /** Lists done (first one + relists after 410); for tests and logs. */
  lists = 0;
  /** The last list/watch failure, cleared by a successful list or watch. */
  lastError: string | undefined;

  constructor(
    private readonly deps: ApiSourceDeps,
    private readonly config: ApiSourceConfig,
  ) {}

  start(): Promise<void> {
    if (this.loop) return Promise.resolve();
    this.abort = new AbortController();
    let firstListed!: () => void;
    const listed = new Promise<void>((r) => (firstListed = r));
    this.loop = this.run(this.abort.signal, firstListed);
    // The kubelet does not block start-up on the API server: resolve after the first list or a failed try.
    return Promise.race([listed, this.deps.clock.sleep(2_000).catch(() => undefined)]);
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    await this.loop;
    this.loop = undefined;
  }

  private async run(signal: AbortSignal, firstListed: () => void): Promise<void> {
    while (!signal.aborted) {
      if (!this.rv) {
        const ok = await this.list(signal);
        if (ok) firstListed();
        else {
          await this.pause(signal);
          continue;
        }
      }
      const end = await this.deps.client.watch<V1Pod>(
        '/api/v1/pods',
        { fieldSelector: `spec.nodeName=${this.config.nodeName}`, resourceVersion: this.rv, allowWatchBookmarks: true, timeoutSeconds: 300 + Math.floor(Math.random() * 300) },
        (e) => this.onEvent(e),
        signal,
      );
      if (signal.aborted) return;
      if (end.ok) {
        this.backoffMs = 0;
        this.lastError = undefined;
        continue;
      }
      if (end.status === 410 || end.reason === 'Expired' || end.reason === 'Gone') {
        this.deps.logger?.info('watch expired; relisting pods', { rv: this.rv, message: end.message });
        this.rv = '';
        continue;
      }
      this.lastError = `watch pods: ${end.reason}: ${end.message}`;
      this.deps.logger?.warn('pod watch failed; retrying', { reason: end.reason, message: end.message });
      // As client-go's reflector (ListAndWatch returns, backs off, lists again): the next try relists, whose
      // success also clears lastError once the API server answers again.
      this.rv = '';
      await this.pause(signal);
    }
  }

  private async list(signal: AbortSignal): Promise<boolean> {
    const r = await this.deps.client.request<V1PodList>({
      method: 'GET',
      path: '/api/v1/pods',
      query: { fieldSelector: `spec.nodeName=${this.config.nodeName}` },
      signal,
    });
    if (!r.ok) {
      this.lastError = `list pods: ${r.reason}: ${r.message}`;
      this.deps.logger?.warn('failed to list pods from the API server', { reason: r.reason, message: r.message });
      return false;
    }
    this.lists++;
    this.backoffMs = 0;
    this.lastError = undefined;
    this.pods.clear();
    for (const p of r.body.items ?? []) {
      if (p.metadata?.uid) this.pods.set(p.metadata.uid, { ...p, apiVersion: 'v1', kind: 'Pod' });
    }
    this.rv = r.body.metadata?.resourceVersion ?? '';
    this.report();
    return true;
  }

  private onEvent(e: WatchEvent<V1Pod>): void {
    const rv = e.object.metadata?.resourceVersion;
    if (rv) this.rv = rv;
    const uid = e.object.metadata?.uid;
    if (e.type === 'BOOKMARK' || !uid) return;
    if (e.type === 'DELETED') this.pods.delete(uid);
    else this.pods.set(uid, { ...e.object, apiVersion: 'v1', kind: 'Pod' });
    this.report();
  }

  private report(): void {
    this.deps.onUpdate({ op: 'SET', pods: [...this.pods.values()].map((p) => withApiSource(p)), source: 'api' });
  }

  private async pause(signal: AbortSignal): Promise<void> {
    this.backoffMs = this.backoffMs === 0 ? (this.config.backoffInitialMs ?? 800) : Math.min(this.backoffMs * 2, this.config.backoffMaxMs ?? 30_000);
    await this.deps.clock.sleep(this.backoffMs, signal).catch(() => undefined);
  }
}

/** Pods from the API source carry kubernetes.io/config.source=api, as the kubelet annotates them. */
function withApiSource(p: V1Pod): V1Pod {
  const meta = p.metadata ?? {};
  return { ...p, metadata: { ...meta, annotations: { ...(meta.annotations ?? {}), 'kubernetes.io/config.source': 'api' } } };
}
