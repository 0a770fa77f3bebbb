/**
 * The socket.io metrics stream: a client emits `nodelet:metrics:subscribe` { keys } (container keys from
 * stats.containers, '/' = the node; an empty list stops) and receives `nodelet:metrics` { key, sample } at the
 * watch rate. Each key is a reference-counted watch in the kubelet, released on resubscribe and disconnect.
 */
import type { KubeletApi } from '@nodelet/core/kubelet/types.ts';
import type { ContainerSample } from '@nodelet/core/stats/types.ts';

export interface MetricsSubscription {
  keys: string[];
}

export interface MetricsMessage {
  key: string;
  sample: ContainerSample;
}

const MAX_KEYS = 64;

/** Per-socket state: replace() swaps the watched keys, close() releases them all. */
export function metricsStream(kubelet: KubeletApi, emit: (m: MetricsMessage) => void) {
  const watches = new Map<string, () => void>();
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
        if (watches.has(k) || !kubelet.stats) continue;
        watches.set(k, kubelet.stats.watch(k, (key, sample) => emit({ key, sample })));
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
