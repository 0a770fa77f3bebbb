/**
 * A recording fake ApiClient: every request is recorded and answered by a handler (default 404); watches are
 * answered by a script of calls, each a list of events and how the stream ends.
 */
import type { ApiClient, ApiRequest, ApiResult, WatchEnd, WatchEvent } from '../types.ts';

export type Handler = (req: ApiRequest, n: number) => ApiResult | Promise<ApiResult>;

export interface WatchScript {
  events: WatchEvent[];
  end: WatchEnd;
}

export const ok = (body: unknown = {}, status = 200): ApiResult => ({ ok: true, status, body });
export const fail = (status: number, reason: string, message = reason): ApiResult => ({ ok: false, status, reason, message });

export class FakeApiClient implements ApiClient {
  readonly server = 'https://fake.invalid';
  readonly calls: ApiRequest[] = [];
  readonly watches: Array<{ path: string; query: ApiRequest['query'] }> = [];
  watchScript: WatchScript[] = [];
  closed = false;

  constructor(public handler: Handler = () => fail(404, 'NotFound')) {}

  async request<T>(req: ApiRequest): Promise<ApiResult<T>> {
    this.calls.push(structuredClone({ ...req, signal: undefined }));
    return (await this.handler(req, this.calls.length)) as ApiResult<T>;
  }

  async watch<T>(path: string, query: ApiRequest['query'], onEvent: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<WatchEnd> {
    this.watches.push({ path, query: { ...query } });
    const next = this.watchScript.shift();
    if (!next) {
      // Nothing scripted: hang until aborted.
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      return { ok: true, reason: 'Aborted' };
    }
    for (const e of next.events) onEvent(e as WatchEvent<T>);
    return next.end;
  }

  close(): void {
    this.closed = true;
  }

  /** Calls as "METHOD path" strings. */
  summary(): string[] {
    return this.calls.map((c) => `${c.method} ${c.path}`);
  }
}
