/**
 * Cgroup layout from /proc/self/mountinfo: v1 per-controller hierarchies (co-mounted or not — on these
 * machines cpu and cpuacct are separate mounts), the cgroup2 unified hierarchy, or both (hybrid).
 */
import type { CgroupLayout, HostFs } from './types.ts';

export interface MountInfo {
  mountPoint: string;
  root: string;
  fsType: string;
  source: string;
  superOptions: string[];
}

const V1_CONTROLLERS = new Set([
  'cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'freezer', 'net_cls', 'net_prio', 'blkio', 'pids',
  'hugetlb', 'perf_event', 'rdma', 'misc',
]);

/** Undoes the octal escapes mountinfo uses for space, tab, newline and backslash. */
function unescape(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
}

export function parseMountInfo(text: string): MountInfo[] {
  const out: MountInfo[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(' ');
    const dash = fields.indexOf('-');
    if (dash < 6 || fields.length < dash + 3) continue;
    out.push({
      root: unescape(fields[3] ?? ''),
      mountPoint: unescape(fields[4] ?? ''),
      fsType: fields[dash + 1] ?? '',
      source: unescape(fields[dash + 2] ?? ''),
      superOptions: (fields[dash + 3] ?? '').split(','),
    });
  }
  return out;
}

/** The layout from mountinfo text alone (unifiedControllers filled in by detectCgroupLayout). */
export function layoutFromMounts(mounts: MountInfo[]): CgroupLayout {
  const v1: Record<string, string> = {};
  let unified: string | undefined;
  for (const m of mounts) {
    if (m.fsType === 'cgroup2') {
      unified ??= m.mountPoint;
    } else if (m.fsType === 'cgroup') {
      for (const opt of m.superOptions) {
        const name = opt.startsWith('name=') ? opt : V1_CONTROLLERS.has(opt) ? opt : undefined;
        if (name !== undefined && v1[name] === undefined) v1[name] = m.mountPoint;
      }
    }
  }
  const hasV1 = Object.keys(v1).length > 0;
  const mode = hasV1 && unified !== undefined ? 'hybrid' : hasV1 ? 'v1' : 'v2';
  const driver = v1.cpu !== undefined || v1.memory !== undefined ? 'v1' : 'v2';
  const layout: CgroupLayout = { mode, v1, driver };
  if (unified !== undefined) layout.unified = unified;
  return layout;
}

export type LayoutResult = { ok: true; layout: CgroupLayout } | { ok: false; reason: string; message: string };

/** Reads /proc/self/mountinfo (and cgroup.controllers of the unified mount) through the injected fs. */
export async function detectCgroupLayout(fs: HostFs, mountInfoPath = '/proc/self/mountinfo'): Promise<LayoutResult> {
  let text: string;
  try {
    text = await fs.readFile(mountInfoPath);
  } catch (e) {
    return { ok: false, reason: 'CgroupLayoutUnknown', message: `read ${mountInfoPath}: ${(e as Error).message}` };
  }
  const layout = layoutFromMounts(parseMountInfo(text));
  if (layout.mode === 'v2' && layout.unified === undefined) {
    return { ok: false, reason: 'CgroupLayoutUnknown', message: 'no cgroup or cgroup2 mount in mountinfo' };
  }
  if (layout.unified !== undefined) {
    try {
      const c = await fs.readFile(`${layout.unified}/cgroup.controllers`);
      layout.unifiedControllers = c.split(/\s+/).filter(Boolean);
    } catch {
      layout.unifiedControllers = [];
    }
  }
  return { ok: true, layout };
}
