import type { K8sBusEvent } from '../../lib/api-types.ts';
import { formatAge } from '../../lib/format.ts';
import { Badge } from '../../lib/ui.tsx';
import { collapseK8sEvents } from './k8s-events.ts';

/** Kubernetes Events for the pod, one row per Event (aggregated repeats collapsed), newest first. */
export function K8sEventsTable({ events, now }: { events: K8sBusEvent[]; now: number }) {
  if (events.length === 0) return <p className="muted">No events recorded.</p>;
  const rows = collapseK8sEvents(events);
  return (
    <table className="table" data-testid="pod-events">
      <thead>
        <tr>
          <th>Type</th>
          <th>Reason</th>
          <th>Age</th>
          <th>Object</th>
          <th>Message</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((e) => (
          <tr key={e.seq} data-testid="pod-event-row" data-reason={e.reason}>
            <td>
              <Badge tone={e.eventType === 'Warning' ? 'bad' : 'info'}>{e.eventType}</Badge>
            </td>
            <td>{e.reason}</td>
            <td className="num nowrap">
              {formatAge(e.lastTimestamp, now)}
              {e.count > 1 ? <span className="muted"> (x{e.count})</span> : null}
            </td>
            <td className="mono small">{e.involvedObject.fieldPath ?? ''}</td>
            <td className="summary">{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
