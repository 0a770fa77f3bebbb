/**
 * Disk usage measured on the housekeeping interval, never per scrape: each refresh walks (du) every
 * directory the current `paths()` lists (container logs, volumes) one after another, keeps the result until
 * the next refresh and forgets directories no longer listed. Extra per-refresh jobs (the runtime's writable
 * layers) run on the same timer. lookup() is a DiskUsage that answers from the cache; a directory asked for
 * before its first walk is walked once then (so a new pod shows usage without waiting an interval).
 */
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { DiskUsage } from './types.ts';

export interface UsageEntry {
  bytes: number;
  inodes: number;
  /** Epoch ms of the walk. */
  time: number;
}

export interface FsUsageCacheDeps {
  du: DiskUsage;
  clock: Clock;
  logger: Logger;
  /** Directories to measure now. */
  paths: () => string[];
}

export class FsUsageCache {
  /** null = walked, directory absent (not walked again before the next refresh). */
  private readonly entries = new Map<string, UsageEntry | null>();
  private readonly jobs: (() => Promise<void>)[] = [];
  private timer: TimerHandle | undefined;
  private inflight: Promise<void> | undefined;
  private readonly firstWalks = new Map<string, Promise<UsageEntry | undefined>>();

  constructor(
    private readonly deps: FsUsageCacheDeps,
    private readonly intervalMs = 10_000,
  ) {}

  /** Adds a job run on every refresh (errors are logged, never thrown). */
  addJob(job: () => Promise<void>): void {
    this.jobs.push(job);
  }

  start(): void {
    if (this.timer) return;
    this.timer = this.deps.clock.setInterval(() => void this.refresh(), this.intervalMs);
    void this.refresh();
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  get(path: string): UsageEntry | undefined {
    return this.entries.get(path) ?? undefined;
  }

  /** A DiskUsage answering from the cache. */
  readonly lookup: DiskUsage = async (path) => {
    const cached = this.entries.get(path);
    const e = cached === undefined ? await this.firstWalk(path) : cached;
    return e ? { bytes: e.bytes, inodes: e.inodes } : undefined;
  };

  /** One pass over every listed directory and job; concurrent calls share the pass. */
  refresh(): Promise<void> {
    this.inflight ??= this.pass().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async pass(): Promise<void> {
    const want = new Set(this.deps.paths());
    for (const p of this.entries.keys()) if (!want.has(p)) this.entries.delete(p);
    for (const p of want) await this.walk(p);
    for (const job of this.jobs) {
      try {
        await job();
      } catch (err) {
        this.deps.logger.warn('fs usage job failed', { err: (err as Error).message });
      }
    }
  }

  private async walk(path: string): Promise<UsageEntry | undefined> {
    const u = await this.deps.du(path);
    if (!u) {
      this.entries.set(path, null);
      return undefined;
    }
    const e = { ...u, time: this.deps.clock.now() };
    this.entries.set(path, e);
    return e;
  }

  private firstWalk(path: string): Promise<UsageEntry | undefined> {
    let p = this.firstWalks.get(path);
    if (!p) {
      p = this.walk(path).finally(() => this.firstWalks.delete(path));
      this.firstWalks.set(path, p);
    }
    return p;
  }
}
