/**
 * Which process to read a pod's network counters from (/proc/<pid>/net/dev). Finding one walks the pod's cgroups
 * (its own cgroup.procs, empty for a pod, a readdir, a container's cgroup.procs): at 110 pods that was three reads a
 * pod a sample for an answer that does not change while the pod lives. The pid found is kept with the network
 * namespace it was in (`/proc/<pid>/ns/net`, a readlink: no file opened) and used again while that link still names
 * the same namespace: a process gone, or its pid reused by a process elsewhere, means a new walk. A pid reused in
 * the same namespace reads the same counters. Without readlink (a HostFs that lacks it) every call walks.
 */
import type { HostFs } from '../cm/types.ts';

interface Kept {
  pid: number;
  ns: string;
  usedAt: number;
}

export interface NetnsPidCache {
  /** A pid in the network namespace of `cgroup`'s processes; undefined when it has none. */
  pid(cgroup: string, now: number): Promise<number | undefined>;
  /** Entries kept (tests). */
  size(): number;
}

/** Entries of pods no longer sampled go after this long unused. */
const FORGET_AFTER_MS = 10 * 60_000;

export function createNetnsPidCache(fs: Pick<HostFs, 'readlink'>, walk: (cgroup: string) => Promise<number | undefined>, procRoot = '/proc'): NetnsPidCache {
  const kept = new Map<string, Kept>();
  let sweptAt = Number.NEGATIVE_INFINITY;
  const nsOf = async (pid: number): Promise<string | undefined> => {
    try {
      return await fs.readlink!(`${procRoot}/${pid}/ns/net`);
    } catch {
      return undefined;
    }
  };
  const sweep = (now: number): void => {
    if (now - sweptAt < FORGET_AFTER_MS) return;
    sweptAt = now;
    for (const [k, v] of kept) if (now - v.usedAt >= FORGET_AFTER_MS) kept.delete(k);
  };
  return {
    async pid(cgroup, now) {
      if (!fs.readlink) return walk(cgroup);
      sweep(now);
      const k = kept.get(cgroup);
      if (k && (await nsOf(k.pid)) === k.ns) {
        k.usedAt = now;
        return k.pid;
      }
      kept.delete(cgroup);
      const pid = await walk(cgroup);
      if (pid === undefined) return undefined;
      const ns = await nsOf(pid);
      if (ns !== undefined) kept.set(cgroup, { pid, ns, usedAt: now });
      return pid;
    },
    size: () => kept.size,
  };
}
