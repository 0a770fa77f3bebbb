import type { ProcessInfo } from '../../lib/api-types.ts';
import { formatBytes } from '../../lib/format.ts';

/** Processes of the container and its children, biggest resident memory first. */
export function ProcessTable({ processes, max = 50 }: { processes: readonly ProcessInfo[] | undefined; max?: number }) {
  const rows = [...(processes ?? [])].sort((a, b) => b.rssBytes - a.rssBytes || a.pid - b.pid).slice(0, max);
  return (
    <table className="table" data-testid="process-table" data-count={processes?.length ?? 0}>
      <thead>
        <tr>
          <th className="num">PID</th>
          <th className="num">PPID</th>
          <th>User</th>
          <th className="num">Threads</th>
          <th className="num">RSS</th>
          <th className="num">Virtual</th>
          <th>Command</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={7} className="muted">{processes ? 'No processes.' : 'Loading…'}</td>
          </tr>
        ) : null}
        {rows.map((p) => (
          <tr key={p.pid} data-testid="process-row">
            <td className="num mono">{p.pid}</td>
            <td className="num mono">{p.ppid}</td>
            <td>{p.user}</td>
            <td className="num">{p.threads}</td>
            <td className="num">{formatBytes(p.rssBytes)}</td>
            <td className="num">{formatBytes(p.virtualBytes)}</td>
            <td className="mono small cmd" title={`${p.cmd}\n${p.cgroup}`}>{p.cmd}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
