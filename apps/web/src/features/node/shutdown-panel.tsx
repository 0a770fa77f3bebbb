'use client';
/** The node page's graceful shutdown progress, live (issue #18 item 6). */
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import { useNow } from '../../lib/use-now.ts';
import { shutdownView, type ShutdownPodView } from './shutdown-model.ts';
import { useShutdownProgress } from './use-shutdown.ts';

export function ShutdownPanel() {
  const q = useShutdownProgress();
  const now = useNow(q.data?.phase === 'shuttingDown' ? 1_000 : 5_000); // countdowns tick every second during a shutdown
  const v = shutdownView(q.data, now);
  if (q.data === null) return null; // no shutdown manager on this node (shutdownGracePeriod unset)
  return (
    <Panel title="Graceful node shutdown" testId="shutdown-panel">
      <QueryState isPending={q.isPending} error={q.error} />
      {v ? (
        <div data-testid="shutdown-state" data-phase={v.phase}>
          <p>
            <Badge tone={v.tone} testId="shutdown-phase">{v.phase}</Badge> <span data-testid="shutdown-headline">{v.headline}</span>
          </p>
          <div className="table-scroll">
            <table className="table" data-testid="shutdown-groups">
              <thead>
                <tr><th>Group</th><th>Period</th><th>State</th><th>Pods</th></tr>
              </thead>
              <tbody>
                {v.groups.map((g) => (
                  <tr key={g.priority} data-testid={`shutdown-group-${g.priority}`} data-state={g.state}>
                    <td>{g.label} <span className="muted small">(priority {g.priority})</span></td>
                    <td className="num">{g.periodSeconds}s</td>
                    <td>
                      <Badge tone={g.tone}>{g.state}</Badge>
                      {g.remainingSeconds !== undefined ? <span className="mono" data-testid={`shutdown-group-left-${g.priority}`}> {g.remainingSeconds}s left</span> : null}
                    </td>
                    <td>
                      {g.pods.length === 0 ? <span className="muted">-</span> : null}
                      <PodList pods={g.pods.filter((p) => p.state !== 'terminated')} />
                      {g.pods.length > g.terminating && g.pods.some((p) => p.state === 'terminated') ? (
                        // Pods already gone fold away: a group of 100 pods stays readable (at 375 px too).
                        <details>
                          <summary className="muted small">{g.pods.filter((p) => p.state === 'terminated').length} terminated</summary>
                          <PodList pods={g.pods.filter((p) => p.state === 'terminated')} />
                        </details>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </Panel>
  );
}

function PodList({ pods }: { pods: ShutdownPodView[] }) {
  if (pods.length === 0) return null;
  return (
    <ul className="checks">
      {pods.map((p) => (
        <li key={p.key} data-testid={`shutdown-pod-${p.namespace}-${p.name}`} data-state={p.state}>
          <Badge tone={p.tone}>{p.state}</Badge> {p.namespace}/{p.name}
          {p.remainingSeconds !== undefined ? <span className="mono" data-testid={`shutdown-pod-left-${p.namespace}-${p.name}`}> {p.remainingSeconds}s</span> : null}
          <span className="muted small"> grace {p.gracePeriodSeconds}s</span>
          {p.error ? <span className="error-text small"> — {p.error}</span> : null}
        </li>
      ))}
    </ul>
  );
}
