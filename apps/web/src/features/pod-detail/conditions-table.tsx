import type { WirePodCondition } from '../../lib/api-types.ts';
import { formatTimestamp } from '../../lib/format.ts';
import { Badge } from '../../lib/ui.tsx';

export function ConditionsTable({ conditions }: { conditions: WirePodCondition[] }) {
  if (conditions.length === 0) return <p className="muted">No conditions reported.</p>;
  return (
    <table className="table" data-testid="pod-conditions">
      <thead>
        <tr>
          <th>Type</th>
          <th>Status</th>
          <th>Reason</th>
          <th>Last transition</th>
        </tr>
      </thead>
      <tbody>
        {conditions.map((c) => (
          <tr key={c.type} data-testid={`condition-${c.type}`} data-status={c.status}>
            <td>{c.type}</td>
            <td>
              <Badge tone={c.status === 'True' ? 'ok' : c.status === 'False' ? 'warn' : 'info'}>{c.status}</Badge>
            </td>
            <td>{c.reason ?? ''}{c.message ? <span className="muted"> — {c.message}</span> : null}</td>
            <td className="mono">{formatTimestamp(c.lastTransitionTime)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
