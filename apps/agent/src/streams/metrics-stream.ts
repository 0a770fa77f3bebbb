/**
 * The socket.io metrics stream: a client emits `nodelet:metrics:subscribe` { keys } (container keys from
 * stats.containers, '/' = the node; an empty list stops) and receives `nodelet:metrics` { key, sample } at the
 * watch rate. Each key is one hub metrics feed, released on resubscribe and disconnect; a key kept across
 * resubscribes keeps its feed.
 */
import type { Emit, Release, StreamHub } from './hub.ts';

const MAX_KEYS = 64;

/** Per-socket state: replace() swaps the watched keys, close() releases them all. */
export function metricsStream(hub: StreamHub, emit: Emit<'metrics'>) {
  const watches = new Map<string, Release>();
  return {
    replace(raw: unknown): void {
      const keys = parseKeys(raw);
      if (!keys) return;
      for (const [k, release] of watches) {
        if (keys.includes(k)) continue;
        release();
        watches.delete(k);
      }
      for (const k of keys) {
        if (watches.has(k)) continue;
        const release = hub.metrics(k, emit);
        if (release) watches.set(k, release);
      }
    },
    watching: (): string[] => [...watches.keys()],
    close(): void {
      for (const release of watches.values()) release();
      watches.clear();
    },
  };
}

function parseKeys(raw: unknown): string[] | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const keys = (raw as { keys?: unknown }).keys;
  if (!Array.isArray(keys)) return undefined;
  const ok = keys.filter((k): k is string => typeof k === 'string' && k.length > 0 && k.length <= 4096);
  return [...new Set(ok)].slice(0, MAX_KEYS);
}
