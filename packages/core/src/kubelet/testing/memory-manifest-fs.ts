/** An in-memory ManifestFs for kubelet tests: put/remove files, watchers fire on change. */
import type { ManifestFs } from '../../config/manifest-fs.ts';

export class MemoryManifestFs implements ManifestFs {
  readonly files = new Map<string, string>();
  private watchers = new Set<() => void>();

  constructor(readonly dir: string) {}

  put(name: string, content: string): void {
    this.files.set(`${this.dir}/${name}`, content);
    for (const w of this.watchers) w();
  }

  remove(name: string): void {
    this.files.delete(`${this.dir}/${name}`);
    for (const w of this.watchers) w();
  }

  async stat(path: string): Promise<{ isDirectory: boolean; isFile: boolean } | undefined> {
    if (path === this.dir) return { isDirectory: true, isFile: false };
    return this.files.has(path) ? { isDirectory: false, isFile: true } : undefined;
  }

  async readdir(dir: string): Promise<Array<{ name: string; isFile: boolean }>> {
    return [...this.files.keys()].filter((p) => p.startsWith(`${dir}/`)).map((p) => ({ name: p.slice(dir.length + 1), isFile: true }));
  }

  async readFile(path: string): Promise<string> {
    const f = this.files.get(path);
    if (f === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return f;
  }

  watch(_path: string, onEvent: () => void): { close(): void } {
    this.watchers.add(onEvent);
    return { close: () => this.watchers.delete(onEvent) };
  }
}
