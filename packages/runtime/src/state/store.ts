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
  /** Containers whose file is written on the next turn of the loop (saveContainerSoon). */
  private readonly unsaved = new Map<string, ContainerRecord>();

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
    this.unsaved.delete(c.id);
    this.containers.set(c.id, c);
    writeJsonAtomic(join(this.dir, 'containers', `${c.id}.json`), c);
  }

  /**
   * The record is current now (the map) and its file is written on the next turn of the loop (setImmediate), after
   * what the caller sends now (an exit's event) has gone out; flush() writes what is still pending (shutdown).
   */
  saveContainerSoon(c: ContainerRecord): void {
    this.containers.set(c.id, c);
    if (this.unsaved.size === 0) setImmediate(() => this.flush());
    this.unsaved.set(c.id, c);
  }

  /** Writes the records saveContainerSoon left pending (not one removed or saved since). */
  flush(): void {
    for (const c of [...this.unsaved.values()]) if (this.containers.get(c.id) === c) this.saveContainer(c);
    this.unsaved.clear();
  }

  deleteSandbox(id: string): void {
    this.sandboxes.delete(id);
    rmSync(join(this.dir, 'sandboxes', `${id}.json`), { force: true });
  }

  deleteContainer(id: string): void {
    this.unsaved.delete(id);
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
