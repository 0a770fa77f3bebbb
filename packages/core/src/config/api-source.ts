/**
 * The API server pod source (the kubelet's NewSourceApiserver): list + watch of pods with
 * spec.nodeName=<node>, tracking resourceVersion (bookmarks included), re-watching from the last RV when a
 * stream ends, relisting on 410 Expired/Gone, reconnecting with a doubling back-off (800 ms → 30 s). Like the
 * undelta store upstream, every change reports the source's full pod set (op SET) to PodConfig.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ApiClient, WatchEnd, WatchEvent } from '../apiclient/types.ts';
import { Reflector } from '../apiclient/reflector.ts';
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
  private abort: AbortController | undefined;
  private loop: Promise<void> | undefined;
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
    const reflector = new Reflector<V1Pod>({
      client: this.deps.client,
      clock: this.deps.clock,
      path: '/api/v1/pods',
      query: { fieldSelector: `spec.nodeName=${this.config.nodeName}` },
      ...(this.config.backoffInitialMs !== undefined ? { backoffInitialMs: this.config.backoffInitialMs } : {}),
      ...(this.config.backoffMaxMs !== undefined ? { backoffMaxMs: this.config.backoffMaxMs } : {}),
      onList: (items) => this.onList(items),
      onEvent: (e) => this.onEvent(e),
      onListError: (r) => {
        this.lastError = `list pods: ${r.reason}: ${r.message}`;
        this.deps.logger?.warn('failed to list pods from the API server', { reason: r.reason, message: r.message });
      },
      onWatchEnd: (end, outcome) => this.onWatchEnd(end, outcome),
    });
    this.loop = reflector.run(this.abort.signal, firstListed);
    // The kubelet does not block start-up on the API server: resolve after the first list or a failed try.
    return Promise.race([listed, this.deps.clock.sleep(2_000).catch(() => undefined)]);
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    await this.loop;
    this.loop = undefined;
  }

  private onList(items: V1Pod[]): void {
    this.lists++;
    this.lastError = undefined;
    this.pods.clear();
    for (const p of items) {
      if (p.metadata?.uid) this.pods.set(p.metadata.uid, { ...p, apiVersion: 'v1', kind: 'Pod' });
    }
    this.report();
  }

  private onEvent(e: WatchEvent<V1Pod>): void {
    const uid = e.object.metadata?.uid;
    if (e.type === 'BOOKMARK' || !uid) return;
    if (e.type === 'DELETED') this.pods.delete(uid);
    else this.pods.set(uid, { ...e.object, apiVersion: 'v1', kind: 'Pod' });
    this.report();
  }

  private onWatchEnd(end: WatchEnd, outcome: 'ok' | 'expired' | 'failed'): void {
    if (outcome === 'ok') this.lastError = undefined;
    if (end.ok) return;
    if (outcome === 'expired') {
      this.deps.logger?.info('watch expired; relisting pods', { message: end.message });
      return;
    }
    // As client-go's reflector (ListAndWatch returns, backs off, lists again): the next try relists, whose
    // success also clears lastError once the API server answers again.
    this.lastError = `watch pods: ${end.reason}: ${end.message}`;
    this.deps.logger?.warn('pod watch failed; retrying', { reason: end.reason, message: end.message });
  }

  private report(): void {
    this.deps.onUpdate({ op: 'SET', pods: [...this.pods.values()].map((p) => withApiSource(p)), source: 'api' });
  }
}

/** Pods from the API source carry kubernetes.io/config.source=api, as the kubelet annotates them. */
function withApiSource(p: V1Pod): V1Pod {
  const meta = p.metadata ?? {};
  return { ...p, metadata: { ...meta, annotations: { ...(meta.annotations ?? {}), 'kubernetes.io/config.source': 'api' } } };
}
