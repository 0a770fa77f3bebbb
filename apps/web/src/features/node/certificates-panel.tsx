'use client';
/** The node page's certificate state: client and serving — subject, issuer, not-after, next rotation, last error (issue #18 item 6). */
import { useQuery } from '@tanstack/react-query';
import { formatTimestamp } from '../../lib/format.ts';
import { useTRPC } from '../../lib/trpc.ts';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import { useNow } from '../../lib/use-now.ts';
import { certificateRows } from './certificates-model.ts';

export function CertificatesPanel() {
  const trpc = useTRPC();
  // Every 30 s: a rotation is rare, and the countdowns move with the page clock.
  const q = useQuery(trpc.certificates.status.queryOptions(undefined, { refetchInterval: 30_000 }));
  const now = useNow();
  const rows = certificateRows(q.data, now);
  return (
    <Panel title="Certificates" testId="certificates-panel">
      <QueryState isPending={q.isPending} error={q.error} />
      <div className="table-scroll">
        <table className="table" data-testid="certificates-table">
          <thead>
            <tr><th>Certificate</th><th>Subject</th><th>Issuer</th><th>Not after</th><th>Next rotation</th><th>Last error</th></tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.which} data-testid={`certificate-${r.which}`} data-tone={r.tone}>
                <td>
                  <Badge tone={r.tone}>{r.title}</Badge>
                  <div className="muted small">{r.source}</div>
                </td>
                <td className="mono small">{r.subject}</td>
                <td className="mono small">{r.issuer}</td>
                <td title={formatTimestamp(r.notAfter)}>
                  {formatTimestamp(r.notAfter)} <span className="muted small" data-testid={`certificate-expires-${r.which}`}>({r.expires})</span>
                </td>
                <td title={formatTimestamp(r.nextRotation)} data-testid={`certificate-rotates-${r.which}`}>
                  {r.rotates}
                  {r.rotations ? <span className="muted small"> · {r.rotations} so far</span> : null}
                </td>
                <td className={r.lastError ? 'error-text small' : 'muted'} data-testid={`certificate-error-${r.which}`}>
                  {r.lastError ? `${r.lastError}${r.lastErrorTime ? ` (${formatTimestamp(r.lastErrorTime)})` : ''}` : 'none'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
