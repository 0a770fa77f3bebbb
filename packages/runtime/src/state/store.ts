import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonDir, writeJsonAtomic } from '../util/atomic-json.ts';
import type { Logger } from '../util/logger.ts';
import type { ContainerRecord, SandboxRecord } from './types.ts';

/** In-memory maps of sandboxes and containers, written through to JSON files (atomic renames). */
export class StateStore {
  readonly sandboxes = new Map<string, SandboxRecord>();
  readonly containers = new Map<string, ContainerRecord>();
  /** Pod-level cgroup dirs this runtime created (shared by the sandboxes under them), for cleanup. */
  readonly podCgroupDirs = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {}

  load(): void {
    const onError = (file: string, err: unknown) => this.logger.warn('skipping unreadable record', { file, err: String(err) });
    for (const s of readJsonDir<SandboxRecord>(join(this.dir, 'sandboxes'), onError)) this.sandboxes.set(s.id, s);
    for (const c of readJsonDir<ContainerRecord>(join(this.dir, 'containers'), onError)) this.containers.set(c.id, c);
    for (const list of readJsonDir<string[]>(join(this.dir, 'cgroups'), onError)) for (const d of list) this.podCgroupDirs.add(d);
  }

  savePodCgroupDirs(): void {
    writeJsonAtomic(join(this.dir, 'cgroups', 'pod-dirs.json'), [...this.podCgroupDirs]);
  }

  saveSandbox(s: SandboxRecord): void {
    this.sandboxes.set(s.id, s);
    writeJsonAtomic(join(this.dir, 'sandboxes', `${s.id}.json`), s);
  }

  saveContainer(c: ContainerRecord): void {
    this.containers.set(c.id, c);
    writeJsonAtomic(join(this.dir, 'containers', `${c.id}.json`), c);
  }

  deleteSandbox(id: string): void {
    this.sandboxes.delete(id);
    rmSync(join(this.dir, 'sandboxes', `${id}.json`), { force: true });
  }

  deleteContainer(id: string): void {
    this.containers.delete(id);
    rmSync(join(this.dir, 'containers', `${id}.json`), { force: true });
  }

  containersOf(sandboxId: string): ContainerRecord[] {
    return [...this.containers.values()].filter((c) => c.sandboxId === sandboxId);
  }

  /** Resolve a full id or a unique prefix (crictl passes prefixes). */
  findSandbox(id: string): SandboxRecord | undefined {
    return this.sandboxes.get(id) ?? unique([...this.sandboxes.values()].filter((s) => id && s.id.startsWith(id)));
  }

  findContainer(id: string): ContainerRecord | undefined {
    return this.containers.get(id) ?? unique([...this.containers.values()].filter((c) => id && c.id.startsWith(id)));
  }
}

function unique<T>(xs: T[]): T | undefined {
  return xs.length === 1 ? xs[0] : undefined;
}
