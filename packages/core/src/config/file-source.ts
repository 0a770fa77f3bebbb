/**
 * The static pod manifest source (staticPodPath / --pod-manifest-path): a directory (or one file) of pod
 * manifests, one pod per *.yaml/*.yml/*.json file, hidden files ignored. Watched (fs.watch) and rescanned every
 * fileCheckFrequency (20 s). A broken file yields no pod and one onError report (until it changes); two
 * manifests with the same namespace/name → the later file (by name) is refused.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { basename, extname, join } from 'node:path';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { canonicalJson } from '../util/hash.ts';
import { podFullName } from '../api/pod-helpers.ts';
import { decodeSinglePod, type DecodeResult } from './decode.ts';
import { nodeManifestFs, type ManifestFs } from './manifest-fs.ts';
import type { PodSource, PodSourceCallbacks } from './types.ts';

export interface FileSourceDeps extends PodSourceCallbacks {
  clock: Clock;
  logger?: Logger;
  fs?: ManifestFs;
}

export interface FileSourceConfig {
  path: string;
  nodeName: string;
  /** Rescan period, ms (default 20 000). */
  fileCheckFrequencyMs?: number;
}

const MANIFEST_EXT = new Set(['.yaml', '.yml', '.json']);

export class FileSource implements PodSource {
  readonly name = 'file' as const;
  private readonly fs: ManifestFs;
  private timer: TimerHandle | undefined;
  private watcher: { close(): void } | undefined;
  private started = false;
  private scanning: Promise<void> | undefined;
  private dirty = false;
  private lastEmitted: string | undefined;
  private readonly parsed = new Map<string, { content: string; result: DecodeResult }>();
  private readonly reported = new Map<string, string>();
  private owners = new Map<string, string>();

  constructor(
    private readonly deps: FileSourceDeps,
    private readonly config: FileSourceConfig,
  ) {
    this.fs = deps.fs ?? nodeManifestFs;
  }

  async start(signal?: AbortSignal): Promise<void> {
    if (this.started) return;
    this.started = true;
    signal?.addEventListener('abort', () => void this.stop(), { once: true });
    this.timer = this.deps.clock.setInterval(() => this.trigger(), this.config.fileCheckFrequencyMs ?? 20_000);
    await this.trigger();
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.timer?.cancel();
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
    await this.scanning;
  }

  /** Requests a rescan; concurrent requests coalesce. Resolves when the source is idle. */
  trigger(): Promise<void> {
    if (this.scanning) {
      this.dirty = true;
      return this.scanning;
    }
    this.scanning = (async () => {
      do {
        this.dirty = false;
        try {
          await this.scan();
        } catch (err) {
          this.deps.logger?.error('static pod scan failed', { path: this.config.path, error: String(err) });
        }
      } while (this.dirty && this.started);
      this.scanning = undefined;
    })();
    return this.scanning;
  }

  /** Resolves once no scan is running. */
  async whenIdle(): Promise<void> {
    while (this.scanning) await this.scanning;
  }

  private async scan(): Promise<void> {
    const path = this.config.path;
    const st = await this.fs.stat(path);
    let files: string[] = [];
    if (!st) {
      this.closeWatcher();
      this.report(path, 'path does not exist, ignoring');
    } else {
      this.clearReport(path);
      if (st.isDirectory) {
        const ents = await this.fs.readdir(path);
        files = ents
          .filter((e) => e.isFile && !e.name.startsWith('.') && MANIFEST_EXT.has(extname(e.name).toLowerCase()))
          .map((e) => e.name)
          .sort()
          .map((n) => join(path, n));
      } else if (st.isFile) files = [path];
      this.ensureWatcher();
    }
    const pods = await this.collect(files);
    const key = canonicalJson(pods);
    if (key === this.lastEmitted || !this.started) return;
    this.lastEmitted = key;
    this.deps.onUpdate({ op: 'SET', pods, source: 'file' });
  }

  /**
   * Decodes every file; for a duplicated namespace/name the file that owned it in the previous scan keeps it
   * (the running pod is not disturbed), otherwise the first file by name wins.
   */
  private async collect(files: string[]): Promise<V1Pod[]> {
    const decoded: Array<{ file: string; pod: V1Pod; full: string }> = [];
    for (const f of files) {
      const r = await this.decode(f);
      if (!r) continue;
      if (!r.ok) this.report(f, r.message);
      else decoded.push({ file: f, pod: r.pods[0] as V1Pod, full: podFullName(r.pods[0] as V1Pod) });
    }
    const owners = new Map<string, string>();
    for (const d of decoded) if (this.owners.get(d.full) === d.file) owners.set(d.full, d.file);
    for (const d of decoded) if (!owners.has(d.full)) owners.set(d.full, d.file);
    const pods: V1Pod[] = [];
    for (const d of decoded) {
      const owner = owners.get(d.full) as string;
      if (owner !== d.file) {
        this.report(d.file, `pod ${d.full} from file ${basename(d.file)} duplicates the pod from file ${basename(owner)}`, d.pod);
        continue;
      }
      this.clearReport(d.file);
      pods.push(d.pod);
    }
    this.owners = owners;
    for (const f of [...this.parsed.keys()]) if (!files.includes(f)) this.parsed.delete(f);
    for (const f of [...this.reported.keys()]) if (f !== this.config.path && !files.includes(f)) this.reported.delete(f);
    return pods;
  }

  private async decode(file: string): Promise<DecodeResult | undefined> {
    let content: string;
    try {
      content = await this.fs.readFile(file);
    } catch {
      return undefined; // removed between readdir and read
    }
    const prev = this.parsed.get(file);
    if (prev && prev.content === content) return prev.result;
    const result = decodeSinglePod(content, { kind: 'file', id: file, nodeName: this.config.nodeName });
    this.parsed.set(file, { content, result });
    return result;
  }

  private report(file: string, message: string, pod?: V1Pod): void {
    if (this.reported.get(file) === message) return;
    this.reported.set(file, message);
    this.deps.logger?.warn('could not process manifest file', { path: file, error: message });
    const err = { source: 'file' as const, file, message };
    this.deps.onError?.(pod ? { ...err, pod: { namespace: pod.metadata?.namespace ?? 'default', name: pod.metadata?.name ?? '' } } : err);
  }

  private clearReport(file: string): void {
    this.reported.delete(file);
  }

  private ensureWatcher(): void {
    if (this.watcher || !this.started) return;
    try {
      this.watcher = this.fs.watch(
        this.config.path,
        () => void this.trigger(),
        (err) => {
          this.deps.logger?.debug('manifest watch failed; relying on periodic rescan', { error: String(err) });
          this.closeWatcher();
        },
      );
    } catch (err) {
      this.deps.logger?.debug('manifest watch unavailable; relying on periodic rescan', { error: String(err) });
    }
  }

  private closeWatcher(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}
