/** Detect the cgroup layout (v1 per-controller mounts, or the v2 unified tree) from /proc/self/mountinfo. */
export type CgroupLayout =
  | { version: 'v1'; mounts: Record<string, string> } // controller name -> mount point
  | { version: 'v2'; mount: string };

/** Controllers the runtime uses. */
export const V1_CONTROLLERS = ['cpu', 'cpuacct', 'memory', 'pids'] as const;

export function parseCgroupLayout(mountinfo: string): CgroupLayout | undefined {
  const v1: Record<string, string> = {};
  let v2Mount: string | undefined;
  for (const line of mountinfo.split('\n')) {
    const sep = line.indexOf(' - ');
    if (sep < 0) continue;
    const left = line.slice(0, sep).split(' ');
    const right = line.slice(sep + 3).split(' ');
    const mountPoint = unescapeMount(left[4] ?? '');
    const fsType = right[0];
    if (fsType === 'cgroup') {
      for (const opt of (right[2] ?? '').split(',')) {
        if ((V1_CONTROLLERS as readonly string[]).includes(opt) && !v1[opt]) v1[opt] = mountPoint;
      }
    } else if (fsType === 'cgroup2' && v2Mount === undefined) {
      v2Mount = mountPoint;
    }
  }
  if (Object.keys(v1).length > 0) return { version: 'v1', mounts: v1 };
  if (v2Mount !== undefined) return { version: 'v2', mount: v2Mount };
  return undefined;
}

function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/** Parent of containers whose sandbox names no cgroup_parent. */
export const DEFAULT_CGROUP_PARENT = '/nodelet';

/** Normalise a CRI cgroup_parent ("/kubepods/burstable/pod123", "kubepods", "") to an absolute path. */
export function normaliseCgroupPath(parent: string | undefined, fallback = DEFAULT_CGROUP_PARENT): string {
  const p = (parent ?? '').trim();
  if (!p) return fallback;
  return ('/' + p.replace(/^\/+/, '')).replace(/\/+$/, '') || fallback;
}

/** CRI cpu_shares (2..262144) to cgroup v2 cpu.weight (1..10000), the conversion runc uses. */
export function sharesToWeight(shares: number): number {
  if (shares <= 0) return 0;
  return 1 + Math.floor(((Math.max(2, shares) - 2) * 9999) / 262142);
}
