/**
 * CgroupManager on cgroup v1: one directory per controller hierarchy (cpu, cpuacct, memory, pids,
 * cpuset, ... each possibly its own mount). Writes cpu.shares, cpu.cfs_period_us / cpu.cfs_quota_us,
 * memory.limit_in_bytes and pids.max.
 */
import { childDirs, collectPids, failure, parseLimit, removeTree } from './cgroup-tree.ts';
import { readOptional, type CgroupLayout, type CgroupManager, type CgroupName, type CgroupResult, type HostFs, type ResourceConfig } from './types.ts';

export const DEFAULT_V1_CONTROLLERS = ['cpu', 'cpuacct', 'cpuset', 'memory', 'pids', 'freezer', 'blkio', 'devices', 'hugetlb'];
/** A cgroup "exists" when it is present in each of these that is mounted. */
const REQUIRED = ['cpu', 'cpuacct', 'memory', 'pids'];

export class CgroupManagerV1 implements CgroupManager {
  readonly driver = 'v1' as const;
  private readonly mounts: [string, string][];

  constructor(
    private readonly deps: { fs: HostFs; layout: CgroupLayout },
    config: { controllers?: string[] } = {},
  ) {
    const wanted = config.controllers ?? DEFAULT_V1_CONTROLLERS;
    this.mounts = wanted.flatMap((c) => (deps.layout.v1[c] !== undefined ? [[c, deps.layout.v1[c]] as [string, string]] : []));
  }

  path(name: CgroupName, controller: string): string | undefined {
    const mount = this.deps.layout.v1[controller];
    return mount === undefined ? undefined : name === '/' ? mount : `${mount}${name}`;
  }

  async create(name: CgroupName, resources?: ResourceConfig): Promise<CgroupResult> {
    for (const [c] of this.mounts) {
      const dir = this.path(name, c) as string;
      try {
        if (c === 'cpuset') await this.mkdirCpuset(name);
        else await this.deps.fs.mkdir(dir);
      } catch (e) {
        return failure('CgroupCreateFailed', `mkdir ${dir}`, e);
      }
    }
    return resources ? this.update(name, resources) : { ok: true };
  }

  /** cpuset levels are created one by one so each inherits its parent's cpus and mems. */
  private async mkdirCpuset(name: CgroupName): Promise<void> {
    let cur = '';
    for (const part of name.split('/').filter(Boolean)) {
      cur = `${cur}/${part}`;
      const dir = this.path(cur, 'cpuset') as string;
      if (await this.deps.fs.exists(dir)) continue;
      await this.deps.fs.mkdir(dir);
      await this.inheritCpuset(dir);
    }
  }

  /** A fresh cpuset cgroup has empty cpus/mems: copy the parent's so tasks can join. */
  private async inheritCpuset(dir: string): Promise<void> {
    const parent = dir.slice(0, dir.lastIndexOf('/'));
    for (const f of ['cpuset.cpus', 'cpuset.mems']) {
      const own = await readOptional(this.deps.fs, `${dir}/${f}`);
      const from = await readOptional(this.deps.fs, `${parent}/${f}`);
      if ((own ?? '').trim() === '' && from !== undefined && from.trim() !== '') {
        await this.deps.fs.writeFile(`${dir}/${f}`, from.trim());
      }
    }
  }

  async update(name: CgroupName, r: ResourceConfig): Promise<CgroupResult> {
    const writes: [string | undefined, string, string | number | undefined][] = [
      [this.path(name, 'cpu'), 'cpu.shares', r.cpuShares],
      [this.path(name, 'cpu'), 'cpu.cfs_period_us', r.cpuPeriod],
      [this.path(name, 'cpu'), 'cpu.cfs_quota_us', r.cpuQuota],
      [this.path(name, 'memory'), 'memory.limit_in_bytes', r.memoryLimit],
      [this.path(name, 'pids'), 'pids.max', r.pidsLimit === undefined ? undefined : r.pidsLimit < 0 ? 'max' : r.pidsLimit],
    ];
    for (const [dir, file, value] of writes) {
      // 0 means "not set" for shares, quota and memory (as libcontainer skips zero values).
      if (dir === undefined || value === undefined || value === 0) continue;
      try {
        await this.deps.fs.writeFile(`${dir}/${file}`, String(value));
      } catch (e) {
        return failure('CgroupUpdateFailed', `write ${dir}/${file}=${value}`, e);
      }
    }
    return { ok: true };
  }

  async destroy(name: CgroupName): Promise<CgroupResult> {
    if (name === '/') return { ok: false, reason: 'CgroupDestroyFailed', message: 'refusing to remove the root cgroup' };
    // Every hierarchy, not only the controllers we write: runtimes (runc) also create the cgroup in named
    // hierarchies (name=systemd) and in the hybrid cgroup2 mount, and those must not be left behind.
    const tops = new Set<string>([...Object.values(this.deps.layout.v1), ...(this.deps.layout.unified ? [this.deps.layout.unified] : [])]);
    for (const mount of tops) {
      const dir = `${mount}${name}`;
      try {
        await removeTree(this.deps.fs, dir);
      } catch (e) {
        return failure('CgroupDestroyFailed', `rmdir ${dir}`, e);
      }
    }
    return { ok: true };
  }

  async exists(name: CgroupName): Promise<boolean> {
    const dirs = REQUIRED.flatMap((c) => this.path(name, c) ?? []);
    if (dirs.length === 0) return false;
    for (const d of dirs) if (!(await this.deps.fs.exists(d))) return false;
    return true;
  }

  async pids(name: CgroupName): Promise<number[]> {
    const dir = this.path(name, 'pids') ?? this.path(name, 'memory') ?? this.path(name, 'cpu');
    return dir === undefined ? [] : collectPids(this.deps.fs, dir);
  }

  async children(name: CgroupName): Promise<CgroupName[]> {
    const dir = this.path(name, 'memory') ?? this.path(name, 'cpu');
    if (dir === undefined) return [];
    const base = name === '/' ? '' : name;
    return (await childDirs(this.deps.fs, dir)).map((n) => `${base}/${n}`);
  }

  async read(name: CgroupName): Promise<ResourceConfig> {
    const rd = (c: string, f: string) => {
      const d = this.path(name, c);
      return d === undefined ? Promise.resolve(undefined) : readOptional(this.deps.fs, `${d}/${f}`);
    };
    const out: ResourceConfig = {};
    const set = (k: keyof ResourceConfig, v: number | undefined) => v !== undefined && (out[k] = v);
    set('cpuShares', parseLimit(await rd('cpu', 'cpu.shares')));
    set('cpuQuota', parseLimit(await rd('cpu', 'cpu.cfs_quota_us')));
    set('cpuPeriod', parseLimit(await rd('cpu', 'cpu.cfs_period_us')));
    set('memoryLimit', parseLimit(await rd('memory', 'memory.limit_in_bytes')));
    set('pidsLimit', parseLimit(await rd('pids', 'pids.max')));
    return out;
  }
}
