'use client';
import { useMemo, useState } from 'react';
import { formatBytes } from '../../lib/format.ts';
import { SortHeader } from '../../lib/sort-header.tsx';
import { nextSort, sortProcesses, type ProcessRow, type ProcessSort, type ProcessSortKey } from './process-model.ts';

const COLUMNS: Array<{ key: ProcessSortKey | 'ppid'; label: string; num?: boolean; title?: string }> = [
  { key: 'pid', label: 'PID', num: true },
  { key: 'ppid', label: 'PPID', num: true },
  { key: 'user', label: 'User', title: "user name from the node's /etc/passwd (the uid when it has none)" },
  { key: 'cpu', label: '%CPU', num: true, title: 'CPU between the last two samples; 100% = one core' },
  { key: 'threads', label: 'Threads', num: true },
  { key: 'rss', label: 'RSS', num: true, title: 'resident set size of the process (/proc/<pid>/status VmRSS)' },
  { key: 'virtual', label: 'Virtual', num: true },
  { key: 'cmd', label: 'Command' },
];

/** Processes of the container and its children: sortable, kernel threads hidden unless asked for. */
export function ProcessTable({ processes, max = 100 }: { processes: readonly ProcessRow[] | undefined; max?: number }) {
  const [sort, setSort] = useState<ProcessSort>({ key: 'rss', desc: true });
  const [showKernel, setShowKernel] = useState(false);
  const rows = useMemo(() => sortProcesses(processes ?? [], sort, showKernel), [processes, sort, showKernel]);
  const kernel = (processes ?? []).filter((p) => p.kernelThread).length;
  return (
    <>
      <div className="table-tools">
        <label className="check">
          <input type="checkbox" checked={showKernel} onChange={(e) => setShowKernel(e.target.checked)} data-testid="process-kernel-toggle" />
          show kernel threads ({kernel})
        </label>
        <span className="muted small" data-testid="rss-note">
          RSS is each process&apos;s resident memory (shared pages count in every process that maps them). The working set in the
          charts is the cgroup&apos;s usage − inactive_file (as cAdvisor and the kubelet&apos;s eviction compute it): it includes page
          cache the container touched recently and kernel memory, so the two need not agree.
        </span>
      </div>
      <div className="table-scroll">
        <table className="table" data-testid="process-table" data-count={processes?.length ?? 0} data-sort={`${sort.key}:${sort.desc ? 'desc' : 'asc'}`}>
          <thead>
            <tr>
              {COLUMNS.map((c) =>
                c.key === 'ppid' ? (
                  <th key={c.key} className="num">{c.label}</th>
                ) : (
                  <SortHeader key={c.key} label={c.label} num={c.num} title={c.title} active={sort.key === c.key} desc={sort.desc}
                    testId={`process-sort-${c.key}`} onSort={() => setSort(nextSort(sort, c.key as ProcessSortKey))} />
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length} className="muted">{processes ? 'No processes.' : 'Loading…'}</td>
              </tr>
            ) : null}
            {rows.slice(0, max).map((p) => (
              <tr key={p.pid} data-testid="process-row" data-pid={p.pid} data-kernel={p.kernelThread ? 'true' : 'false'}>
                <td className="num mono">{p.pid}</td>
                <td className="num mono">{p.ppid}</td>
                <td title={`uid ${p.uid}`}>{p.user}</td>
                <td className="num" data-testid="process-cpu">{p.cpuPercent === undefined ? '—' : p.cpuPercent.toFixed(1)}</td>
                <td className="num">{p.threads}</td>
                <td className="num" data-testid="process-rss" data-bytes={p.rssBytes}>{formatBytes(p.rssBytes)}</td>
                <td className="num">{formatBytes(p.virtualBytes)}</td>
                <td className="mono small cmd" title={`${p.cmd}\n${p.cgroup}`}>{p.cmd}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
