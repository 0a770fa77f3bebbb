/**
 * When the static pod manifest source (file-source.ts) scans: at start, every fileCheckFrequency (20 s) and on a
 * watch event of its path (the events delivered together making one rescan), a request during a scan coalescing
 * into one more after it; and the path's watch (fs.watch, the periodic rescan alone when it fails). What a scan
 * does is the source's `scan`.
 */
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { nodeManifestFs, type ManifestFs } from './manifest-fs.ts';
import type { PodSourceCallbacks } from './types.ts';

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

export abstract class ManifestScanLoop {
  protected readonly fs: ManifestFs;
  private timer: TimerHandle | undefined;
  private watcher: { close(): void } | undefined;
  protected started = false;
  private scanning: Promise<void> | undefined;
  /** A rescan asked by watch events, run once the events queued with them are in (onWatchEvent). */
  private watchScan: Promise<void> | undefined;
  private dirty = false;

  constructor(
    protected readonly deps: FileSourceDeps,
    protected readonly config: FileSourceConfig,
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

  /**
   * A watch event. The rescan runs after the events delivered with it (setImmediate): writing a manifest is two or
   * three inotify events, and a burst of 30 written while the agent was busy arrived together — 120 rescans of the
   * whole directory, one an event, held the event loop ≈ 60 ms before any pod's RunPodSandbox reached the runtime.
   */
  private onWatchEvent(): void {
    this.watchScan ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.watchScan = undefined;
        if (!this.started) return resolve();
        void this.trigger().then(resolve);
      }),
    );
  }

  /** Resolves once no scan is running or asked for by a watch event. */
  async whenIdle(): Promise<void> {
    while (this.scanning || this.watchScan) await (this.watchScan ?? this.scanning);
  }

  protected ensureWatcher(): void {
    if (this.watcher || !this.started) return;
    try {
      this.watcher = this.fs.watch(
        this.config.path,
        () => this.onWatchEvent(),
        (err) => {
          this.deps.logger?.debug('manifest watch failed; relying on periodic rescan', { error: String(err) });
          this.closeWatcher();
        },
      );
    } catch (err) {
      this.deps.logger?.debug('manifest watch unavailable; relying on periodic rescan', { error: String(err) });
    }
  }

  protected closeWatcher(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** One scan: lists the path, decodes its manifests and reports the pods when they changed. */
  protected abstract scan(): Promise<void>;
}
