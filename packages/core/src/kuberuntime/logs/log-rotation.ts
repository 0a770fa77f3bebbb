/**
 * The kubelet's container log manager (pkg/kubelet/logs/container_log_manager.go): every 10 s, each running
 * container whose log file has reached containerLogMaxSize (default 10Mi) is rotated:
 * 1. the rotated files of that log (`<log>.<stamp>` and `<log>.<stamp>.gz`) are listed; leftovers of an
 *    interrupted rotation go (`*.tmp`, and a plain file whose `.gz` already exists);
 * 2. the oldest go until at most containerLogMaxFiles − 2 remain (the current file and the one about to be
 *    rotated make up the rest);
 * 3. every remaining uncompressed rotated file is gzipped (`<f>.gz.tmp`, renamed to `<f>.gz`, `<f>` removed);
 * 4. the current file is renamed `<log>.<YYYYMMDD-hhmmss>` (left uncompressed, so the runtime can finish its write
 *    and readers their read) and the runtime is told to reopen it (CRI ReopenContainerLog); when that fails the
 *    file is renamed back, to try again next round.
 * A log that does not exist is reopened first. A negative max size turns rotation off. The container GC removes
 * a container's rotated files with it (the kubelet's Clean).
 */
import { posix } from 'node:path';
import type { CriClient } from '../../cri/types.ts';
import type { Clock, TimerHandle } from '../../util/clock.ts';
import type { Logger } from '../../util/logger.ts';

export const DEFAULT_CONTAINER_LOG_MAX_SIZE = '10Mi';
export const DEFAULT_CONTAINER_LOG_MAX_FILES = 5;
/** logMonitorPeriod in the kubelet. */
export const LOG_MONITOR_PERIOD_MS = 10_000;

const COMPRESS_SUFFIX = '.gz';
const TMP_SUFFIX = '.tmp';

export interface LogRotatePolicy {
  /** Bytes; negative = no rotation. */
  maxSize: number;
  /** At least 2. */
  maxFiles: number;
}

export interface LogRotationFs {
  /** Size in bytes, undefined when the file does not exist. */
  size(path: string): Promise<number | undefined>;
  /** Entry names of a directory ([] when it does not exist). */
  readDir(path: string): Promise<string[]>;
  rename(from: string, to: string): Promise<void>;
  /** Removes a file; absent is fine. */
  remove(path: string): Promise<void>;
  /** Writes src gzipped to dst (dst is created or truncated, with src's mode). */
  gzip(src: string, dst: string): Promise<void>;
}

export interface ContainerLogManagerDeps {
  cri: Pick<CriClient, 'listContainers' | 'containerStatus' | 'reopenContainerLog'>;
  clock: Clock;
  logger: Logger;
  fs: LogRotationFs;
}

/** NewContainerLogManager's checks: the kubelet refuses to start with these. */
export function checkLogRotatePolicy(p: LogRotatePolicy): string | undefined {
  if (!Number.isInteger(p.maxFiles) || p.maxFiles <= 1) return `invalid MaxFiles ${p.maxFiles}, must be > 1`;
  if (!Number.isFinite(p.maxSize)) return `invalid max log size`;
  return undefined;
}

export class ContainerLogManager {
  private timer: TimerHandle | undefined;
  private running: Promise<void> | undefined;
  /**
   * Log path per running container: a container's CRI log path is fixed at creation, so ContainerStatus is asked
   * once per container rather than on every pass (110 gRPC calls every 10 s at 110 pods otherwise).
   */
  private readonly logPaths = new Map<string, string>();

  constructor(
    private readonly deps: ContainerLogManagerDeps,
    readonly policy: LogRotatePolicy,
  ) {
    const bad = checkLogRotatePolicy(policy);
    if (bad) throw new Error(bad);
  }

  get enabled(): boolean {
    return this.policy.maxSize >= 0;
  }

  start(): void {
    if (!this.enabled || this.timer) return;
    this.deps.logger.info('Initializing container log rotate workers', { maxSize: this.policy.maxSize, maxFiles: this.policy.maxFiles, monitorPeriod: '10s' });
    this.timer = this.deps.clock.setInterval(() => void this.rotateLogs(), LOG_MONITOR_PERIOD_MS);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** One pass over the running containers; a pass still in progress is joined, not doubled. */
  rotateLogs(): Promise<void> {
    if (!this.running) {
      this.running = this.pass().finally(() => (this.running = undefined));
    }
    return this.running;
  }

  private async pass(): Promise<void> {
    let containers;
    try {
      containers = (await this.deps.cri.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } })).containers;
    } catch (err) {
      this.deps.logger.error('Failed to rotate container logs', { err: `failed to list containers: ${String(err)}` });
      return;
    }
    const running = new Set(containers.filter((c) => c.state === 'CONTAINER_RUNNING').map((c) => c.id));
    for (const id of this.logPaths.keys()) if (!running.has(id)) this.logPaths.delete(id);
    for (const id of running) await this.processContainer(id);
  }

  private async processContainer(id: string): Promise<void> {
    const { cri, fs, logger } = this.deps;
    let path = this.logPaths.get(id);
    if (path === undefined) {
      try {
        path = (await cri.containerStatus({ containerId: id })).status?.logPath ?? '';
      } catch (err) {
        logger.error('Failed to get container status', { containerID: id, err: String(err) });
        return;
      }
      if (path) this.logPaths.set(id, path);
    }
    if (!path) return;
    try {
      let size = await fs.size(path);
      if (size === undefined) {
        await cri.reopenContainerLog({ containerId: id });
        size = await fs.size(path);
        if (size === undefined) throw new Error(`container log ${path} still missing after reopen`);
      }
      if (size < this.policy.maxSize) return;
      await this.rotateLog(id, path);
      logger.info('Rotated container log', { containerID: id, path, size, maxSize: this.policy.maxSize });
    } catch (err) {
      logger.error('Failed to rotate log for container', { containerID: id, path, maxSize: this.policy.maxSize, err: String(err) });
    }
  }

  private async rotateLog(id: string, log: string): Promise<void> {
    const { fs } = this.deps;
    const rotated = rotatedLogFiles(log, await fs.readDir(posix.dirname(log)));
    const { inuse, unused } = splitUnusedLogs(rotated);
    for (const f of unused) await fs.remove(f);
    const kept = await this.removeExcessLogs(inuse);
    for (const f of kept) {
      if (f.endsWith(COMPRESS_SUFFIX)) continue;
      await fs.gzip(f, f + COMPRESS_SUFFIX + TMP_SUFFIX);
      await fs.rename(f + COMPRESS_SUFFIX + TMP_SUFFIX, f + COMPRESS_SUFFIX);
      await fs.remove(f);
    }
    const target = `${log}.${rotationTimestamp(this.deps.clock.now())}`;
    await fs.rename(log, target);
    try {
      await this.deps.cri.reopenContainerLog({ containerId: id });
    } catch (err) {
      await fs.rename(target, log).catch((e: unknown) => this.deps.logger.error('Failed to rename rotated log', { rotatedLog: target, newLog: log, containerID: id, err: String(e) }));
      throw new Error(`failed to reopen container log "${id}": ${String(err)}`);
    }
  }

  /** Oldest first (the names sort by their timestamp); keeps at most MaxFiles − 2. */
  private async removeExcessLogs(logs: string[]): Promise<string[]> {
    const sorted = [...logs].sort();
    const keep = Math.max(0, this.policy.maxFiles - 2);
    const cut = Math.max(0, sorted.length - keep);
    for (const f of sorted.slice(0, cut)) await this.deps.fs.remove(f);
    return sorted.slice(cut);
  }
}

/** The rotations of `log` (`<log>.<stamp>`, `.gz`, `.tmp`) among the names of its directory, as paths. */
export function rotatedLogFiles(log: string, dirEntries: readonly string[]): string[] {
  const dir = posix.dirname(log);
  const prefix = `${posix.basename(log)}.`;
  return dirEntries.filter((n) => n.startsWith(prefix)).map((n) => posix.join(dir, n));
}

/** filterUnusedLogs: temporary files, and plain files whose compressed twin exists, are leftovers. */
export function splitUnusedLogs(logs: string[]): { inuse: string[]; unused: string[] } {
  const all = new Set(logs);
  const inuse: string[] = [];
  const unused: string[] = [];
  for (const l of logs) {
    const leftover = l.endsWith(TMP_SUFFIX) || (!l.endsWith(COMPRESS_SUFFIX) && all.has(l + COMPRESS_SUFFIX));
    (leftover ? unused : inuse).push(l);
  }
  return { inuse, unused };
}

/** Go's "20060102-150405" in the process's local time zone, as the kubelet's clock.Now().Format. */
export function rotationTimestamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}
