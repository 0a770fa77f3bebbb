/** Links from a container (pod detail) to its log in the logs viewer, and to its previous instance when it has one. */
import Link from 'next/link';
import type { WireContainerStatus } from '../../lib/api-types.ts';

export function containerLogsHref(namespace: string, pod: string, container: string, previous = false): string {
  const q = new URLSearchParams({ container });
  if (previous) q.set('previous', '1');
  return `/pods/${encodeURIComponent(namespace)}/${encodeURIComponent(pod)}/logs?${q}`;
}

export function ContainerLogsLink({ namespace, pod, status }: { namespace: string; pod: string; status: WireContainerStatus }) {
  return (
    <div className="small" data-testid={`container-logs-links-${status.name}`}>
      <Link href={containerLogsHref(namespace, pod, status.name)} data-testid={`container-logs-${status.name}`}>logs</Link>
      {status.lastState?.terminated ? (
        <>
          {' · '}
          <Link href={containerLogsHref(namespace, pod, status.name, true)} data-testid={`container-previous-logs-${status.name}`}>previous logs</Link>
        </>
      ) : null}
    </div>
  );
}
