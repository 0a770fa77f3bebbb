import Link from 'next/link';
import { formatClock } from '../../lib/format.ts';
import { Badge } from '../../lib/ui.tsx';
import type { TailRow } from './tail-model.ts';

/** Rows of lifecycle events, newest first. `showPod` off on the pod detail page. */
export function TailTable({ rows, showPod = true, testId = 'tail' }: { rows: TailRow[]; showPod?: boolean; testId?: string }) {
  return (
    <table className="table tail-table" data-testid={testId}>
      <thead>
        <tr>
          <th>Time (UTC)</th>
          <th>Type</th>
          {showPod ? <th>Pod</th> : null}
          <th>Event</th>
          <th>Details</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={showPod ? 5 : 4} className="muted">No events yet.</td>
          </tr>
        ) : null}
        {rows.map((r) => (
          <tr key={r.seq} data-testid="tail-row" data-type={r.type} data-pod={r.pod ?? ''} data-namespace={r.namespace ?? ''} data-seq={r.seq}>
            <td className="mono nowrap">{formatClock(r.time)}</td>
            <td>
              <span className={`type type-${r.type}`}>{r.type}</span>
            </td>
            {showPod ? (
              <td className="nowrap">
                {r.pod && r.namespace ? (
                  <Link prefetch={false} href={`/pods/${encodeURIComponent(r.namespace)}/${encodeURIComponent(r.pod)}`}>
                    <span className="muted">{r.namespace}/</span>
                    {r.pod}
                  </Link>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            ) : null}
            <td>
              <Badge tone={r.tone}>{r.label}</Badge>
            </td>
            <td className="summary">{r.summary}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
