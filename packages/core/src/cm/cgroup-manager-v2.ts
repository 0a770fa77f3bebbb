/**
 * CgroupManager on the cgroup v2 unified hierarchy: one directory per cgroup; controllers are delegated
 * by writing "+cpu +memory +pids" into each ancestor's cgroup.subtree_control. Writes cpu.weight
 * (converted from shares), cpu.max ("<quota|max> <period>"), memory.max and pids.max.
 */
import { sharesToWeight, weightToShares } from './cgroup-name.ts';
import { childDirs, collectPids, failure, parseLimit, removeTree } from './cgroup-tree.ts';
import { readOptional, type CgroupLayout, type CgroupManager, type CgroupName, type CgroupResult, type HostFs, type ResourceConfig } from './types.ts';

const WANTED = ['cpu', 'memory', 'pids', 'cpuset', 'io', 'hugetlb'];

export class CgroupManagerV2 implements CgroupManager {
  readonly driver = 'v2' as const;
  private readonly mount: string;

  constructor(private readonly deps: { fs: HostFs; layout: CgroupLayout }) {
    if (deps.layout.unified === undefined) throw new Error('CgroupManagerV2 needs a cgroup2 mount');
    this.mount = deps.layout.unified;
  }

  path(name: CgroupName, _controller?: string): string {
    return name === '/' ? this.mount : `${this.mount}${name}`;
  }

  async create(name: CgroupName, resources?: ResourceConfig): Promise<CgroupResult> {
    const parts = name.split('/').filter(Boolean);
    let cur = '';
    try {
      for (const p of parts) {
        await this.delegate(this.path(cur === '' ? '/' : cur));
        cur = `${cur}/${p}`;
        await this.deps.fs.mkdir(this.path(cur));
      }
    } catch (e) {
      return failure('CgroupCreateFailed', `create ${this.path(name)}`, e);
    }
    return resources ? this.update(name, resources) : { ok: true };
  }

  /** Enables the wanted controllers (those the parent offers) for the children of dir. */
  private async delegate(dir: string): Promise<void> {
    const offered = await readOptional(this.deps.fs, `${dir}/cgroup.controllers`);
    if (offered === undefined) return;
    const enabled = (await readOptional(this.deps.fs, `${dir}/cgroup.subtree_control`)) ?? '';
    const have = new Set(enabled.split(/\s+/));
    const add = offered.split(/\s+/).filter((c) => WANTED.includes(c) && !have.has(c));
    if (add.length === 0) return;
    await this.deps.fs.writeFile(`${dir}/cgroup.subtree_control`, add.map((c) => `+${c}`).join(' '));
  }

  async update(name: CgroupName, r: ResourceConfig): Promise<CgroupResult> {
    const dir = this.path(name);
    const writes: [string, string | undefined][] = [
      ['cpu.weight', r.cpuShares === undefined ? undefined : String(sharesToWeight(r.cpuShares))],
      ['cpu.max', cpuMax(r)],
      ['memory.max', r.memoryLimit === undefined ? undefined : r.memoryLimit < 0 ? 'max' : String(r.memoryLimit)],
      ['pids.max', r.pidsLimit === undefined ? undefined : r.pidsLimit < 0 ? 'max' : String(r.pidsLimit)],
    ];
    for (const [file, value] of writes) {
      if (value === undefined || value === '0') continue;
      try {
        await this.deps.fs.writeFile(`${dir}/${file}`, value);
      } catch (e) {
        return failure('CgroupUpdateFailed', `write ${dir}/${file}=${value}`, e);
      }
    }
    return { ok: true };
  }

  async destroy(name: CgroupName): Promise<CgroupResult> {
    if (name === '/') return { ok: false, reason: 'CgroupDestroyFailed', message: 'refusing to remove the root cgroup' };
    try {
      await removeTree(this.deps.fs, this.path(name));
      return { ok: true };
    } catch (e) {
      return failure('CgroupDestroyFailed', `rmdir ${this.path(name)}`, e);
    }
  }

  exists(name: CgroupName): Promise<boolean> {
    return this.deps.fs.exists(this.path(name));
  }

  pids(name: CgroupName): Promise<number[]> {
    return collectPids(this.deps.fs, this.path(name));
  }

  async children(name: CgroupName): Promise<CgroupName[]> {
    const base = name === '/' ? '' : name;
    return (await childDirs(this.deps.fs, this.path(name))).map((n) => `${base}/${n}`);
  }

  async read(name: CgroupName): Promise<ResourceConfig> {
    const dir = this.path(name);
    const rd = (f: string) => readOptional(this.deps.fs, `${dir}/${f}`);
    const out: ResourceConfig = {};
    const weight = parseLimit(await rd('cpu.weight'));
    if (weight !== undefined) out.cpuShares = weightToShares(weight);
    const max = (await rd('cpu.max'))?.trim().split(/\s+/);
    if (max && max[0] !== undefined) {
      out.cpuQuota = max[0] === 'max' ? -1 : Number(max[0]);
      if (max[1] !== undefined) out.cpuPeriod = Number(max[1]);
    }
    const mem = parseLimit(await rd('memory.max'));
    if (mem !== undefined) out.memoryLimit = mem;
    const pids = parseLimit(await rd('pids.max'));
    if (pids !== undefined) out.pidsLimit = pids;
    return out;
  }
}

function cpuMax(r: ResourceConfig): string | undefined {
  if (r.cpuQuota === undefined && r.cpuPeriod === undefined) return undefined;
  const quota = r.cpuQuota === undefined || r.cpuQuota <= 0 ? 'max' : String(r.cpuQuota);
  return r.cpuPeriod === undefined ? quota : `${quota} ${r.cpuPeriod}`;
}
