import Link from 'next/link';
import { formatBytes, formatCores } from '../../lib/format.ts';
import type { RankBy, SubcontainerRow } from './stats-nav.ts';

/** Children of the selected container ranked by CPU or memory, each linking to its own page. */
export function Subcontainers({ rows, rankBy, onRank }: { rows: SubcontainerRow[]; rankBy: RankBy; onRank(by: RankBy): void }) {
  return (
    <div data-testid="subcontainers" data-count={rows.length}>
      <div className="rank-toggle">
        rank by{' '}
        {(['cpu', 'memory'] as const).map((b) => (
          <button key={b} type="button" className={`btn btn-small${b === rankBy ? ' btn-primary' : ''}`} onClick={() => onRank(b)} data-testid={`rank-${b}`}>
            {b === 'cpu' ? 'CPU' : 'memory'}
          </button>
        ))}
      </div>
      {rows.length === 0 ? <p className="muted">No subcontainers.</p> : null}
      {rows.length > 0 ? (
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Kind</th>
              <th className="num">CPU</th>
              <th className="num">Working set</th>
              <th>Image</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.container.key} data-testid="subcontainer-row" data-key={r.container.key}>
                <td><Link prefetch={false} href={r.href}>{r.name}</Link></td>
                <td>{r.container.kind}</td>
                <td className="num">{formatCores(r.cpuCores)}</td>
                <td className="num">{formatBytes(r.workingSetBytes)}</td>
                <td className="mono small">{r.container.labels.image ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
