/**
 * Container manager types: the host file system seam, the cgroup layout, the CgroupManager interface
 * (one logical tree for cgroup v1 and v2) and the resource numbers the kubelet writes into it.
 */

/** statfs(2) of a mount, in bytes and inode counts. */
export interface StatFsResult {
  /** Block size. */
  bsize: number;
  blocks: number;
  /** Free blocks (root may use). */
  bfree: number;
  /** Free blocks for unprivileged users (what "available" means). */
  bavail: number;
  files: number;
  ffree: number;
}

export interface DirEntry {
  name: string;
  dir: boolean;
}

/**
 * The file system as the container manager, stats and OOM watcher see it. Absolute host paths
 * (`/sys/fs/cgroup/...`, `/proc/...`). Failing calls throw Node-style errors carrying `code` (ENOENT...);
 * callers turn expected failures into values.
 */
export interface HostFs {
  readFile(path: string): Promise<string>;
  readdir(path: string): Promise<DirEntry[]>;
  /** Creates the directory and missing parents; no error when it exists. */
  mkdir(path: string): Promise<void>;
  writeFile(path: string, data: string): Promise<void>;
  /** Removes one (cgroup) directory; child directories make it fail (EBUSY/ENOTEMPTY). */
  rmdir(path: string): Promise<void>;
  statfs(path: string): Promise<StatFsResult>;
  exists(path: string): Promise<boolean>;
  /** A symlink's target (`/proc/<pid>/ns/net` → `net:[4026531840]`); optional: fakes may leave it out. */
  readlink?(path: string): Promise<string>;
  /**
   * A kernel pseudo-file (procfs, sysfs, cgroupfs) read synchronously into `buf`: its length, or `buf.length` when it
   * may be longer (read it again into a larger buffer); throws as readFile. For the stats housekeeping, which reads a
   * dozen such files per container every 10–15 s: no string and no promise per file. Optional: fakes may leave it out
   * (the readers then go through readFile).
   */
  readPseudoInto?(path: string, buf: Uint8Array): number;
}

export type CgroupMode = 'v1' | 'v2' | 'hybrid';

/** Where each controller lives, from /proc/self/mountinfo. */
export interface CgroupLayout {
  /** v1: only per-controller hierarchies; v2: only the unified one; hybrid: v1 controllers + a cgroup2 mount. */
  mode: CgroupMode;
  /** v1 controller name → mount point (`cpu` → `/sys/fs/cgroup/cpu`; co-mounted ones share a path). */
  v1: Record<string, string>;
  /** The cgroup2 mount point, if any. */
  unified?: string;
  /** Controllers available in the unified hierarchy (cgroup.controllers), when known. */
  unifiedControllers?: string[];
  /** Which driver the container manager uses: v1 when cpu or memory are v1 controllers. */
  driver: 'v1' | 'v2';
}

/** A logical cgroup name: '/kubepods/burstable/pod<uid>'. '/' is the root. */
export type CgroupName = string;

/** Resource settings for one cgroup; undefined = leave as is. */
export interface ResourceConfig {
  /** v1 cpu.shares (v2 converts to cpu.weight). */
  cpuShares?: number;
  /** CFS quota in µs per period; -1 = unlimited. */
  cpuQuota?: number;
  /** CFS period in µs. */
  cpuPeriod?: number;
  /** Bytes; -1 = unlimited. */
  memoryLimit?: number;
  /** -1 = unlimited. */
  pidsLimit?: number;
}

export type CgroupResult = { ok: true } | { ok: false; reason: string; message: string };

export interface CgroupManager {
  readonly driver: 'v1' | 'v2';
  create(name: CgroupName, resources?: ResourceConfig): Promise<CgroupResult>;
  update(name: CgroupName, resources: ResourceConfig): Promise<CgroupResult>;
  /** Removes the cgroup (and its empty children) in every hierarchy; absent = ok. */
  destroy(name: CgroupName): Promise<CgroupResult>;
  exists(name: CgroupName): Promise<boolean>;
  /** Pids in the cgroup and its descendants. */
  pids(name: CgroupName): Promise<number[]>;
  /** Child cgroup names (logical). */
  children(name: CgroupName): Promise<CgroupName[]>;
  /** Host directory of the cgroup for a controller ('memory', 'cpu', 'cpuacct', 'pids'); v2 ignores it. */
  path(name: CgroupName, controller: string): string | undefined;
  /** Resources read back (for tests, the console's Isolation panel, /metrics/cadvisor container_spec_*). */
  read(name: CgroupName): Promise<ResourceConfig>;
}

/** Quantities as the kubelet's config writes them: { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1Gi', pid: '1000' }. */
export type ResourceList = Record<string, string>;

/** Node resources in base units (cpu in millicores). */
export interface NodeResources {
  cpuMilli: number;
  memoryBytes: number;
  ephemeralStorageBytes: number;
  pods: number;
  pids?: number;
}

export interface QOSContainerManagerConfig {
  /** Prefix for the whole tree (the kubelet's cgroupRoot); default '/'. */
  cgroupRoot?: string;
  /** Default true; false = everything straight under the root, no QoS tree. */
  cgroupsPerQOS?: boolean;
  /** kubepods limits (capacity − reserved), when enforceNodeAllocatable has 'pods'. */
  podsResources?: ResourceConfig;
  /** How long an unknown, empty pod cgroup must stay so before cleanup removes it (default 30 s). */
  orphanGraceMs?: number;
}

/** The `code` of a Node-style error (ENOENT, EBUSY...). */
export function errCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

/** Reads a file, or undefined when it is absent or unreadable. */
export async function readOptional(fs: HostFs, p: string): Promise<string | undefined> {
  try {
    return await fs.readFile(p);
  } catch {
    return undefined;
  }
}

export interface PodCgroupRef {
  qos: 'Guaranteed' | 'Burstable' | 'BestEffort';
  uid: string;
  /** Container id when the path goes below the pod cgroup (runtime prefixes and .scope stripped). */
  containerId?: string;
}

/**
 * Maps a cgroup path to its pod (and container): cgroupfs `/kubepods/burstable/pod<uid>/<cid>` and systemd
 * `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_>.slice/cri-containerd-<cid>.scope`.
 */
export function parsePodCgroup(path: string): PodCgroupRef | undefined {
  const segs = path.split('/').filter(Boolean);
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i] as string;
    const prev = segs[i - 1] ?? '';
    const cgroupfs = ['kubepods', 'burstable', 'besteffort'].includes(prev) ? /^pod([0-9A-Za-z_-]+)$/.exec(s) : null;
    const m = cgroupfs ?? /^kubepods(?:-(?:burstable|besteffort))?-pod([0-9A-Za-z_]+)\.slice$/.exec(s);
    if (!m) continue;
    const above = segs.slice(0, i).join('/') + '/' + s;
    const qos = /burstable/.test(above) ? 'Burstable' : /besteffort/.test(above) ? 'BestEffort' : 'Guaranteed';
    if (!/kubepods/.test(above)) continue;
    const out: PodCgroupRef = { qos, uid: (m[1] as string).replace(/_/g, '-') };
    const next = segs[i + 1];
    if (next !== undefined) out.containerId = next.replace(/\.scope$/, '').replace(/^(?:cri-containerd|docker|crio|containerd)-/, '');
    return out;
  }
  return undefined;
}
