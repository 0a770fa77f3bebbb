/** Pure model of the process table: %CPU from two samples, kernel-thread filter, sorting. */
import type { ProcessInfo } from '../../lib/api-types.ts';

export interface ProcessRow extends ProcessInfo {
  /** CPU use between the previous sample and this one, top-style (100 = one core busy); undefined on the first sample. */
  cpuPercent?: number;
}

export interface ProcessSample {
  at: number;
  processes: readonly ProcessInfo[];
}

/** Rows of `cur` with %CPU against `prev` (same pid, counter not going back: a reused pid gets none). */
export function withCpuPercent(prev: ProcessSample | undefined, cur: ProcessSample): ProcessRow[] {
  const before = new Map((prev?.processes ?? []).map((p) => [p.pid, p]));
  const dtNs = prev ? (cur.at - prev.at) * 1e6 : 0;
  return cur.processes.map((p) => {
    const b = before.get(p.pid);
    if (!b || dtNs <= 0 || p.cpuNanoseconds < b.cpuNanoseconds || b.cmd !== p.cmd) return { ...p };
    return { ...p, cpuPercent: ((p.cpuNanoseconds - b.cpuNanoseconds) / dtNs) * 100 };
  });
}

export type ProcessSortKey = 'pid' | 'user' | 'cpu' | 'threads' | 'rss' | 'virtual' | 'cmd';
export interface ProcessSort {
  key: ProcessSortKey;
  desc: boolean;
}

const value: Record<ProcessSortKey, (p: ProcessRow) => number | string> = {
  pid: (p) => p.pid,
  user: (p) => p.user,
  cpu: (p) => p.cpuPercent ?? -1,
  threads: (p) => p.threads,
  rss: (p) => p.rssBytes,
  virtual: (p) => p.virtualBytes,
  cmd: (p) => p.cmd,
};

/** Sorted rows (ties by pid), kernel threads dropped unless shown. */
export function sortProcesses(rows: readonly ProcessRow[], sort: ProcessSort, showKernel: boolean): ProcessRow[] {
  const get = value[sort.key];
  const dir = sort.desc ? -1 : 1;
  return rows
    .filter((p) => showKernel || !p.kernelThread)
    .sort((a, b) => {
      const va = get(a);
      const vb = get(b);
      const c = typeof va === 'string' || typeof vb === 'string' ? String(va).localeCompare(String(vb)) : va - vb;
      return c * dir || a.pid - b.pid;
    });
}

/** A click on a column: the same column flips the direction; a new one starts descending for numbers, ascending for text. */
export function nextSort(cur: ProcessSort, key: ProcessSortKey): ProcessSort {
  if (cur.key === key) return { key, desc: !cur.desc };
  return { key, desc: !(key === 'user' || key === 'cmd' || key === 'pid') };
}
