/**
 * Finds the pod sandbox of a container id, and the pod's UID, through CRI (for event sources that carry bare ids, such
 * as containerd's task events). Cached; best effort: undefined when CRI does not (yet) know the id. The UID lets the
 * evented PLEG take a new sandbox's event as its pod's (a read of that pod, or none while its worker creates it)
 * instead of relisting every pod.
 */
import type { RuntimeContainerEvent } from './runtime-event-types.ts';
import type { CriClient } from './types.ts';

/** The label the kubelet puts on every container it creates (kubelet/types/labels.go KubernetesPodUIDLabel). */
const POD_UID_LABEL = 'io.kubernetes.pod.uid';

export interface ResolvedSandbox {
  sandboxId: string;
  /** The sandbox's metadata.uid; a container's io.kubernetes.pod.uid label. */
  podUid?: string;
}

export type SandboxResolver = (ev: RuntimeContainerEvent) => Promise<ResolvedSandbox | undefined>;

export interface SandboxResolverOptions {
  /** Cache bound; the oldest entries go first (default 4096). */
  maxEntries?: number;
  /** Deadline of each lookup call (default 5 s). */
  timeoutMs?: number;
}

const withUid = (sandboxId: string, uid: string | undefined): ResolvedSandbox => (uid ? { sandboxId, podUid: uid } : { sandboxId });

async function lookup(cri: CriClient, id: string, timeoutMs: number): Promise<ResolvedSandbox | undefined> {
  try {
    const { containers } = await cri.listContainers({ filter: { id } }, { timeoutMs });
    const c = containers.find((x) => x.id === id);
    if (c) return c.podSandboxId ? withUid(c.podSandboxId, c.labels?.[POD_UID_LABEL]) : undefined;
    const { items } = await cri.listPodSandbox({ filter: { id } }, { timeoutMs });
    const sb = items.find((s) => s.id === id);
    return sb ? withUid(id, sb.metadata?.uid) : undefined;
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
  const cache = new Map<string, ResolvedSandbox>();
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
