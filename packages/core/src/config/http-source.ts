/**
 * The manifest URL source (staticPodURL / --manifest-url): polled every httpCheckFrequency (20 s); the body is
 * one pod, a v1 PodList or several YAML documents, YAML or JSON. When the fetch or the whole body fails the
 * error is reported (once until it changes) and the last good set is kept. In a list each pod is validated on
 * its own: the good ones are synced and each bad one is reported (once while it stays bad).
 */
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { canonicalJson } from '../util/hash.ts';
import { decodePodOrList } from './decode.ts';
import type { PodSource, PodSourceCallbacks } from './types.ts';

export type FetchLike = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<{
  ok: boolean;
  status: number;
  statusText: string;
  text(): Promise<string>;
}>;

export interface HttpSourceDeps extends PodSourceCallbacks {
  clock: Clock;
  logger?: Logger;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
}

export interface HttpSourceConfig {
  url: string;
  nodeName: string;
  /** Poll period, ms (default 20 000). */
  httpCheckFrequencyMs?: number;
  /** --manifest-url-header. */
  headers?: Record<string, string>;
  /** Per-request timeout, ms (default 10 000). */
  timeoutMs?: number;
}

export class HttpSource implements PodSource {
  readonly name = 'http' as const;
  private timer: TimerHandle | undefined;
  private started = false;
  private polling: Promise<void> | undefined;
  private lastEmitted: string | undefined;
  private lastError: string | undefined;
  private itemErrors = new Set<string>();
  private abort = new AbortController();

  constructor(
    private readonly deps: HttpSourceDeps,
    private readonly config: HttpSourceConfig,
  ) {}

  async start(signal?: AbortSignal): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.abort = new AbortController();
    signal?.addEventListener('abort', () => void this.stop(), { once: true });
    this.timer = this.deps.clock.setInterval(() => void this.poll(), this.config.httpCheckFrequencyMs ?? 20_000);
    await this.poll();
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.timer?.cancel();
    this.abort.abort(new Error('http source stopped'));
    await this.polling;
  }

  /** Fetches once (skipped when a fetch is already running). */
  poll(): Promise<void> {
    this.polling ??= this.fetchOnce()
      .catch((err: unknown) => {
        this.deps.logger?.error('manifest URL poll failed', { url: this.config.url, error: String(err) });
      })
      .finally(() => {
        this.polling = undefined;
      });
    return this.polling;
  }

  private async fetchOnce(): Promise<void> {
    const { url } = this.config;
    const body = await this.get();
    if (!this.started) return;
    if (!body.ok) return this.fail(body.message);
    const r = decodePodOrList(body.text, { kind: 'http', id: url, nodeName: this.config.nodeName });
    if (!r.ok) {
      return this.fail(`${url}: received '${truncate(body.text)}', but couldn't parse as single pod or list of pods (${r.message})`);
    }
    this.lastError = undefined;
    const itemErrors = new Set(r.errors);
    for (const e of itemErrors) if (!this.itemErrors.has(e)) this.report(`${url}: ${e}`);
    this.itemErrors = itemErrors;
    const key = canonicalJson(r.pods);
    if (key === this.lastEmitted) return;
    this.lastEmitted = key;
    this.deps.onUpdate({ op: 'SET', pods: r.pods, source: 'http' });
  }

  private async get(): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
    const { url } = this.config;
    const fetchFn = this.deps.fetch ?? (globalThis.fetch as unknown as FetchLike);
    const ac = new AbortController();
    const onStop = () => ac.abort(this.abort.signal.reason);
    this.abort.signal.addEventListener('abort', onStop, { once: true });
    const t = this.deps.clock.setTimeout(() => ac.abort(new Error('timeout')), this.config.timeoutMs ?? 10_000);
    try {
      const res = await fetchFn(url, { headers: { ...(this.config.headers ?? {}) }, signal: ac.signal });
      const text = await res.text();
      if (res.status !== 200) return { ok: false, message: `${url}: ${res.status} ${res.statusText}`.trim() };
      if (text.length === 0) return { ok: false, message: `zero-length data received from ${url}` };
      return { ok: true, text };
    } catch (err) {
      const e = err as Error & { cause?: { message?: string } };
      return { ok: false, message: `${url}: ${e.cause?.message ?? e.message}` };
    } finally {
      t.cancel();
      this.abort.signal.removeEventListener('abort', onStop);
    }
  }

  private fail(message: string): void {
    if (this.lastError === message) return;
    this.lastError = message;
    this.itemErrors.clear();
    this.report(message);
  }

  private report(message: string): void {
    this.deps.logger?.warn('failed to read pods from URL', { url: this.config.url, error: message });
    try {
      this.deps.onError?.({ source: 'http', file: this.config.url, message });
    } catch (err) {
      this.deps.logger?.error('source error listener threw', { url: this.config.url, error: String(err) });
    }
  }
}

function truncate(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}...` : s;
}
