/**
 * The node shutdown manager's state file and metrics (nodeshutdown/storage.go, metrics.go, v1.28):
 * <root-dir>/graceful_node_shutdown_state holds {"startTime","endTime"} (RFC 3339) of the last graceful shutdown,
 * written atomically (temp file + rename), read at start so that kubelet_graceful_shutdown_start_time_seconds and
 * kubelet_graceful_shutdown_end_time_seconds report it after the machine came back.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SHUTDOWN_STATE_FILE = 'graceful_node_shutdown_state';

export interface ShutdownState {
  startTime?: string;
  endTime?: string;
}

export interface ShutdownStateStore {
  load(): Promise<ShutdownState | undefined>;
  store(s: ShutdownState): Promise<void>;
}

/** The two gauges (seconds since the epoch); the kubelet's names. */
export interface ShutdownMetrics {
  startTime: { set(v: number): void };
  endTime: { set(v: number): void };
}

export function fileShutdownStateStore(rootDir: string): ShutdownStateStore {
  const path = join(rootDir, SHUTDOWN_STATE_FILE);
  return {
    async load() {
      const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw err;
      });
      return text === undefined ? undefined : (JSON.parse(text) as ShutdownState);
    },
    async store(s) {
      const tmp = `${path}.tmp`;
      await writeFile(tmp, JSON.stringify(s), { mode: 0o644 });
      await rename(tmp, path);
    },
  };
}

/** Seconds since the epoch of an RFC 3339 time (0 when absent), as the gauges carry it. */
export function timestampSeconds(t: string | undefined): number {
  const ms = t ? Date.parse(t) : Number.NaN;
  return Number.isFinite(ms) ? ms / 1000 : 0;
}
