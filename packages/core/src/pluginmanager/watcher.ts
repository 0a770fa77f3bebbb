/**
 * The plugin watcher (pluginmanager/pluginwatcher, v1.28): the desired state of the world's populator. It
 * creates the registry directory (0755), watches it and every directory below it, walks what is already
 * there, and records unix sockets appearing (AddOrUpdatePlugin) and disappearing (RemovePlugin). Names
 * starting with '.' are ignored, as are other files. Not in the kubelet: a symlink is not followed (it is
 * ignored with a warning), so every registration socket is a file inside the directory.
 */
import path from 'node:path';
import { lstat, mkdir, readdir } from 'node:fs/promises';
import { watch, type FSWatcher, type Stats } from 'node:fs';
import type { Logger } from '../util/logger.ts';
import type { DesiredStateOfWorld } from './state.ts';

export interface PluginWatcherDeps {
  /** `<root-dir>/plugins_registry`. */
  dir: string;
  dsw: DesiredStateOfWorld;
  logger: Logger;
}

export class PluginWatcher {
  private readonly dirs = new Map<string, FSWatcher>();
  /** Socket path → the file seen (inode and birth time): a second event for the same file changes nothing. */
  private readonly seen = new Map<string, string>();
  private pending: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly deps: PluginWatcherDeps) {}

  /** Start: the directory made, watched, and walked (sockets already there are added). */
  async start(): Promise<void> {
    const { dir, logger } = this.deps;
    await mkdir(dir, { recursive: true, mode: 0o755 });
    logger.info('Plugin Watcher Start', { path: dir });
    await this.traverse(dir);
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.dirs.values()) w.close();
    this.dirs.clear();
  }

  /** Resolves when the events received so far are handled (tests). */
  settled(): Promise<void> {
    return this.pending;
  }

  /** traversePluginDir: watch the directory, then every directory and socket below it. */
  private async traverse(dir: string): Promise<void> {
    if (this.stopped || this.dirs.has(dir)) return;
    const w = watch(dir, (event, name) => {
      // 'rename' is inotify's create, delete and move; 'change' (writes, chmod) is neither Create nor Remove.
      if (event !== 'rename' || !name) return;
      const p = path.join(dir, name.toString());
      this.pending = this.pending.then(() => this.onEvent(p)).catch((err: unknown) => this.deps.logger.error('Error when handling event', { path: p, err: String(err) }));
    });
    w.on('error', () => this.forget(dir));
    this.dirs.set(dir, w);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      this.deps.logger.error('Error accessing path', { path: dir, err: String(err) });
      return;
    }
    for (const name of names.sort()) {
      const p = path.join(dir, name);
      const st = await lstat(p).catch(() => undefined);
      if (st) await this.handleCreate(p, st);
    }
  }

  private async onEvent(p: string): Promise<void> {
    if (this.stopped) return;
    const st = await lstat(p).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      return undefined;
    });
    if (st) await this.handleCreate(p, st);
    else this.handleDelete(p);
  }

  /** handleCreateEvent: dot names ignored; a directory is traversed, a socket added, anything else ignored. */
  private async handleCreate(p: string, st: Stats): Promise<void> {
    const { dsw, logger } = this.deps;
    if (path.basename(p).startsWith('.')) {
      logger.debug("Ignoring file (starts with '.')", { path: p });
      return;
    }
    if (st.isDirectory()) return this.traverse(p);
    if (st.isSymbolicLink()) {
      logger.warn('Ignoring symlink: plugin sockets must be files in the plugin registry', { path: p });
      return;
    }
    if (!st.isSocket()) {
      logger.debug('Ignoring non socket file', { path: p });
      return;
    }
    const id = `${st.ino}:${st.birthtimeMs}`;
    if (this.seen.get(p) === id && dsw.pluginExists(p)) return;
    this.seen.set(p, id);
    logger.info('Adding socket path or updating timestamp to desired state cache', { path: p });
    dsw.addOrUpdatePlugin(p);
  }

  /** handleDeleteEvent: the path leaves the desired state (a directory's watch is dropped). */
  private handleDelete(p: string): void {
    this.seen.delete(p);
    if (this.deps.dsw.pluginExists(p)) this.deps.logger.info('Removing socket path from desired state cache', { path: p });
    this.deps.dsw.removePlugin(p);
    for (const d of this.deps.dsw.pluginsToRegister()) if (d.socketPath.startsWith(p + path.sep)) this.deps.dsw.removePlugin(d.socketPath);
    this.forget(p);
  }

  private forget(dir: string): void {
    for (const [d, w] of this.dirs) {
      if (d === dir || d.startsWith(dir + path.sep)) {
        w.close();
        this.dirs.delete(d);
      }
    }
  }
}
