/**
 * Finds the pod sandbox of a container id through CRI (for event sources that carry bare ids, such as
 * containerd's task events). Cached; best effort: undefined when CRI does not (yet) know the id.
 */
import type { RuntimeContainerEvent } from './runtime-event-types.ts';
import type { CriClient } from './types.ts';

export type SandboxResolver = (ev: RuntimeContainerEvent) => Promise<string | undefined>;

export interface SandboxResolverOptions {
  /** Cache bound; the oldest entries go first (default 4096). */
  maxEntries?: number;
  /** Deadline of each lookup call (default 5 s). */
  timeoutMs?: number;
}

async function lookup(cri: CriClient, id: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const { containers } = await cri.listContainers({ filter: { id } }, { timeoutMs });
    const c = containers.find((x) => x.id === id);
    if (c) return c.podSandboxId || undefined;
    const { items } = await cri.listPodSandbox({ filter: { id } }, { timeoutMs });
    return items.some((s) => s.id === id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A resolver asking CRI ListContainers (then ListPodSandbox: a sandbox resolves to itself). Ids are
 * forgotten on their 'deleted' event; a 'deleted' id never seen before is not looked up.
 */
export function createCriSandboxResolver(cri: CriClient, opts: SandboxResolverOptions = {}): SandboxResolver {
  const max = opts.maxEntries ?? 4096;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const cache = new Map<string, string>();
  return async (ev) => {
    const known = cache.get(ev.containerId);
    if (ev.kind === 'deleted') {
      cache.delete(ev.containerId);
      return known;
    }
    if (known !== undefined) return known;
    const found = await lookup(cri, ev.containerId, timeoutMs);
    if (found !== undefined) {
      cache.set(ev.containerId, found);
      if (cache.size > max) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
    }
    return found;
  };
}
