/**
 * Watch streams: JSON lines `{"type":..., "object":...}` over a chunked 200 response, as the real watch
 * cache serves them. Start points: RV unset/"0" → synthetic ADDED for current objects, then changes; RV X →
 * every change after X, or one ERROR event (410 Expired, "too old resource version: X (Y)") when X has left
 * the window. Selector transitions: entering → ADDED, leaving → DELETED (previous state, event RV).
 * allowWatchBookmarks → periodic BOOKMARK with the current RV; sendInitialEvents → initial-events-end bookmark.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, TimerHandle } from '@nodelet/core/util';
import { compileFilter, parseRv } from '../store/list.ts';
import type { ChangeEvent, RawStore } from '../store/store.ts';
import { apiVersionOf, resourceKey, type KubeObject, type ResourceInfo } from '../resources.ts';
import { statusBody } from '../status.ts';

export interface WatchContext {
  raw: RawStore;
  clock: Clock;
  bookmarkIntervalMs: number;
  /** Server-chosen watch duration when the client gives no timeoutSeconds (real: 30-60 min). */
  defaultTimeoutMs: () => number;
  /** Registers the watch so the server can end it on stop(); returns the unregister function. */
  track: (end: () => void) => () => void;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** Translate a store change into what a filtered watcher sees (or nothing). */
export function toWatchEvent(e: ChangeEvent, pass: (o: KubeObject) => boolean): { type: WatchEventType; object: KubeObject } | undefined {
  if (e.type === 'ADDED') return pass(e.object) ? { type: 'ADDED', object: e.object } : undefined;
  if (e.type === 'DELETED') return pass(e.prev ?? e.object) ? { type: 'DELETED', object: e.object } : undefined;
  const was = e.prev ? pass(e.prev) : false;
  const now = pass(e.object);
  if (was && now) return { type: 'MODIFIED', object: e.object };
  if (now) return { type: 'ADDED', object: e.object };
  if (was) {
    const gone = structuredClone(e.prev!);
    gone.metadata.resourceVersion = String(e.rv);
    return { type: 'DELETED', object: gone };
  }
  return undefined;
}

export function serveWatch(ctx: WatchContext, r: ResourceInfo, namespace: string | undefined, url: URL, req: IncomingMessage, res: ServerResponse): void {
  const q = url.searchParams;
  const selectors = compileFilter(r, q.get('labelSelector') ?? undefined, q.get('fieldSelector') ?? undefined);
  const nsScoped = r.namespaced && namespace !== undefined;
  const pass = (o: KubeObject) => (!nsScoped || o.metadata.namespace === namespace) && selectors(o);
  const rvText = q.get('resourceVersion') ?? '';
  const fromRv = rvText && rvText !== '0' ? parseRv(rvText) : undefined;
  const bookmarks = q.get('allowWatchBookmarks') === 'true' || q.get('allowWatchBookmarks') === '1';
  const key = resourceKey(r);

  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  const write = (type: WatchEventType, object: unknown) => {
    if (!res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
  };
  const bookmark = (annotations?: Record<string, string>) =>
    write('BOOKMARK', {
      kind: r.kind,
      apiVersion: apiVersionOf(r),
      metadata: { resourceVersion: String(ctx.raw.currentRv()), ...(annotations ? { annotations } : {}) },
    });

  if (fromRv !== undefined) {
    const backlog = ctx.raw.changesSince(key, fromRv);
    if (backlog === 'expired') {
      write('ERROR', statusBody(410, 'Expired', `too old resource version: ${fromRv} (${ctx.raw.compacted()})`));
      res.end();
      return;
    }
    for (const e of backlog) {
      const ev = toWatchEvent(e, pass);
      if (ev) write(ev.type, ev.object);
    }
  } else {
    for (const o of ctx.raw.list(key, nsScoped ? namespace : undefined)) if (pass(o)) write('ADDED', o);
    if (bookmarks && q.get('sendInitialEvents') === 'true') bookmark({ 'k8s.io/initial-events-end': 'true' });
  }

  const unsubscribe = ctx.raw.subscribe((e) => {
    if (e.resource !== key) return;
    const ev = toWatchEvent(e, pass);
    if (ev) write(ev.type, ev.object);
  });
  const timers: TimerHandle[] = [];
  if (bookmarks) timers.push(ctx.clock.setInterval(() => bookmark(), ctx.bookmarkIntervalMs));
  const timeoutSeconds = Number(q.get('timeoutSeconds') ?? '');
  const timeoutMs = timeoutSeconds > 0 ? timeoutSeconds * 1000 : ctx.defaultTimeoutMs();
  let untrack = () => {};
  const end = () => {
    unsubscribe();
    for (const t of timers) t.cancel();
    untrack();
    if (!res.writableEnded) res.end();
  };
  timers.push(ctx.clock.setTimeout(end, timeoutMs));
  untrack = ctx.track(end);
  req.on('close', end);
  res.on('close', end);
}
