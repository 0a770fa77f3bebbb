import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { V1_CONTROLLERS, parseCgroupLayout, sharesToWeight, type CgroupLayout } from './cgroup-layout.ts';
import { cpusetMountOf, ensureCpusetDir, writeCpuset } from './cpuset-cgroup.ts';

export interface CgroupResources {
  memoryLimitInBytes?: number;
  cpuQuota?: number;
  cpuPeriod?: number;
  cpuShares?: number;
  pidsLimit?: number;
}

export interface CgroupSample {
  cpuUsageNs: number;
  memoryUsageBytes: number;
  workingSetBytes: number;
  rssBytes: number;
  pageFaults: number;
  majorPageFaults: number;
}

/**
 * Per-container cgroups over v1 (one dir per controller) or v2 (one dir). `path` is the cgroup path
 * (e.g. "/kubepods/pod1/<id>"). All methods are best-effort: failures come back as values.
 */
export class Cgroups {
  private constructor(
    readonly layout: CgroupLayout,
    /** v1: the cpuset hierarchy, joined only by containers given a cpuset (cpuset-cgroup.ts). */
    private readonly cpusetMount?: string,
  ) {}

  /** Detects the layout and probes writability; undefined when cgroups cannot be managed here. */
  static detect(mountinfo = readSafe('/proc/self/mountinfo')): Cgroups | undefined {
    const layout = parseCgroupLayout(mountinfo ?? '');
    if (!layout) return undefined;
    const cg = new Cgroups(layout, layout.version === 'v1' ? cpusetMountOf(mountinfo ?? '') : undefined);
    const probe = `/nodelet-probe-${process.pid}`;
    const created = cg.create(probe);
    if (!created.ok) return undefined;
    cg.remove(probe);
    return cg;
  }

  /** Directories of `path` in every managed hierarchy. */
  dirs(path: string): string[] {
    if (this.layout.version === 'v2') return [join(this.layout.mount, path)];
    const mounts = [...new Set(Object.values(this.layout.mounts))];
    return mounts.map((m) => join(m, path));
  }

  /** The cgroup.procs files to write a pid into (to join the cgroup); v1: its cpuset too once it has one. */
  procsFiles(path: string): string[] {
    const cpuset = this.cpusetMount ? join(this.cpusetMount, path) : undefined;
    return [...this.dirs(path), ...(cpuset && existsSync(cpuset) ? [cpuset] : [])].map((d) => join(d, 'cgroup.procs'));
  }

  /**
   * CRI cpuset_cpus / cpuset_mems of the container at `path` ('' or undefined: unchanged). v1: its cpuset
   * cgroup is made first (`movePids`: the running processes are moved into it). Returns the files not written.
   */
  setCpuset(path: string, cpus: string | undefined, mems: string | undefined, movePids = false): string[] {
    if (!cpus && !mems) return [];
    if (this.layout.version === 'v2') return writeCpuset(join(this.layout.mount, path), cpus, mems);
    if (!this.cpusetMount) return ['cpuset.cpus'];
    let dir: string;
    try {
      dir = ensureCpusetDir(this.cpusetMount, path);
    } catch {
      return ['cpuset.cpus'];
    }
    const failed = writeCpuset(dir, cpus, mems);
    if (movePids) {
      for (const pid of this.pids(path)) {
        try {
          writeFileSync(join(dir, 'cgroup.procs'), String(pid));
        } catch {
          /* exited */
        }
      }
    }
    return failed;
  }

  /** Create `path` (and parents); returns every dir that did not exist before (for cleanup). */
  create(path: string): { ok: true; created: string[] } | { ok: false; message: string } {
    const created: string[] = [];
    try {
      const parts = path.split('/').filter(Boolean);
      for (const root of this.dirs('/')) {
        let cur = root;
        for (const part of parts) {
          cur = join(cur, part);
          if (!existsSync(cur) && mkdirRacy(cur)) created.push(cur);
        }
      }
      if (this.layout.version === 'v2') this.enableV2Controllers(path);
      return { ok: true, created };
    } catch (err) {
      return { ok: false, message: String(err) };
    }
  }

  /** Write resource limits; returns the files that could not be written. */
  apply(path: string, r: CgroupResources): string[] {
    const failed: string[] = [];
    const put = (ctl: string, file: string, value: string | number) => {
      const dir = this.dirOf(ctl, path);
      if (!dir) return;
      try {
        writeFileSync(join(dir, file), String(value));
      } catch {
        failed.push(file);
      }
    };
    const v2 = this.layout.version === 'v2';
    if (r.memoryLimitInBytes && r.memoryLimitInBytes > 0) {
      put('memory', v2 ? 'memory.max' : 'memory.limit_in_bytes', r.memoryLimitInBytes);
      if (v2) put('memory', 'memory.swap.max', 0);
    }
    if (r.cpuShares && r.cpuShares > 0) {
      v2 ? put('cpu', 'cpu.weight', sharesToWeight(r.cpuShares)) : put('cpu', 'cpu.shares', r.cpuShares);
    }
    if (r.cpuQuota && r.cpuQuota > 0) {
      const period = r.cpuPeriod && r.cpuPeriod > 0 ? r.cpuPeriod : 100000;
      if (v2) put('cpu', 'cpu.max', `${r.cpuQuota} ${period}`);
      else {
        put('cpu', 'cpu.cfs_period_us', period);
        put('cpu', 'cpu.cfs_quota_us', r.cpuQuota);
      }
    }
    if (r.pidsLimit && r.pidsLimit > 0) put('pids', 'pids.max', r.pidsLimit);
    return failed;
  }

  /** Pids currently in the cgroup. */
  pids(path: string): number[] {
    const dir = this.dirOf('memory', path) ?? this.dirs(path)[0];
    const txt = dir ? readSafe(join(dir, 'cgroup.procs')) : undefined;
    return (txt ?? '').split('\n').filter(Boolean).map(Number);
  }

  /** OOM kills recorded for the cgroup (v1 memory.oom_control oom_kill, v2 memory.events oom_kill). */
  oomKills(path: string): number {
    const dir = this.dirOf('memory', path);
    if (!dir) return 0;
    const file = this.layout.version === 'v2' ? 'memory.events' : 'memory.oom_control';
    return kv(readSafe(join(dir, file)))['oom_kill'] ?? 0;
  }

  sample(path: string): CgroupSample | undefined {
    const mem = this.dirOf('memory', path);
    const cpu = this.dirOf(this.layout.version === 'v2' ? 'cpu' : 'cpuacct', path);
    if (!mem || !cpu || !existsSync(mem)) return undefined;
    const v2 = this.layout.version === 'v2';
    const stat = kv(readSafe(join(mem, 'memory.stat')));
    const usage = Number(readSafe(join(mem, v2 ? 'memory.current' : 'memory.usage_in_bytes')) ?? 0);
    const inactive = (v2 ? stat['inactive_file'] : stat['total_inactive_file']) ?? 0;
    const cpuNs = v2
      ? (kv(readSafe(join(cpu, 'cpu.stat')))['usage_usec'] ?? 0) * 1000
      : Number(readSafe(join(cpu, 'cpuacct.usage')) ?? 0);
    return {
      cpuUsageNs: cpuNs,
      memoryUsageBytes: usage,
      workingSetBytes: Math.max(0, usage - inactive),
      rssBytes: (v2 ? stat['anon'] : stat['total_rss']) ?? 0,
      pageFaults: (v2 ? stat['pgfault'] : stat['total_pgfault']) ?? 0,
      majorPageFaults: (v2 ? stat['pgmajfault'] : stat['total_pgmajfault']) ?? 0,
    };
  }

  /** SIGKILL every process in the cgroup. */
  killAll(path: string): void {
    for (const pid of this.pids(path)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }

  /** rmdir the cgroup in every hierarchy; true when nothing is left. */
  remove(path: string): boolean {
    let ok = true;
    for (const d of [...this.dirs(path), ...(this.cpusetMount ? [join(this.cpusetMount, path)] : [])]) {
      try {
        if (existsSync(d)) rmdirSync(d);
      } catch {
        ok = false;
      }
    }
    return ok;
  }

  private dirOf(controller: string, path: string): string | undefined {
    if (this.layout.version === 'v2') return join(this.layout.mount, path);
    const m = this.layout.mounts[controller];
    return m ? join(m, path) : undefined;
  }

  private enableV2Controllers(path: string): void {
    if (this.layout.version !== 'v2') return;
    const parts = path.split('/').filter(Boolean);
    let cur = this.layout.mount;
    for (const part of parts) {
      for (const ctl of ['cpu', 'memory', 'pids', 'cpuset']) {
        try {
          writeFileSync(join(cur, 'cgroup.subtree_control'), `+${ctl}`);
        } catch {
          /* unavailable here: its limits then fail individually */
        }
      }
      cur = join(cur, part);
      mkdirSync(cur, { recursive: true });
    }
  }
}

export { V1_CONTROLLERS };

/** mkdir that tolerates a concurrent creator: true when this call created it. */
function mkdirRacy(dir: string): boolean {
  try {
    mkdirSync(dir);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

function readSafe(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function kv(text: string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of (text ?? '').split('\n')) {
    const [k, v] = line.trim().split(/\s+/);
    if (k && v !== undefined) out[k] = Number(v);
  }
  return out;
}
