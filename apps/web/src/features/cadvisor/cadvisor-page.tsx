'use client';
import Link from 'next/link';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import { ChartWindowPicker, ChartWindowProvider } from '../charts/chart-window.tsx';
import { ContainerUsage } from './container-usage.tsx';
import { MachineOverview } from './machine-overview.tsx';
import { ancestorsOf, displayName, findPodContainer, hrefFor } from './stats-nav.ts';
import { useStatsInventory } from './use-stats.ts';

export type CadvisorTarget = { kind: 'key'; key: string } | { kind: 'pod'; namespace: string; name: string };

/** cAdvisor-style page: machine overview, then the selected cgroup (node, QoS class, pod, container). */
export function CadvisorPage({ target }: { target: CadvisorTarget }) {
  const inv = useStatsInventory();
  const list = inv.containers ?? [];
  const container = target.kind === 'pod' ? findPodContainer(list, target.namespace, target.name) : list.find((c) => c.key === target.key);
  const title = target.kind === 'pod' ? `${target.namespace}/${target.name}` : target.key;
  return (
    <ChartWindowProvider>
      <div data-testid="cadvisor-page" data-key={container?.key ?? ''} className="stack">
        <Panel
          title={container ? displayName(container) : title}
          actions={
            <>
              <ChartWindowPicker />
              {container ? <Badge tone="info" testId="cadvisor-kind">{container.kind}</Badge> : null}
              {target.kind === 'pod' ? <Link href={`/pods/${encodeURIComponent(target.namespace)}/${encodeURIComponent(target.name)}`}>pod details</Link> : null}
            </>
          }
        >
          <nav className="crumbs" data-testid="cadvisor-crumbs">
            {container ? (
              [...ancestorsOf(list, container.key), container].map((c, i, all) => (
                <span key={c.key}>
                  {i === all.length - 1 ? <span className="mono">{c.key}</span> : <Link href={hrefFor(c)} className="mono">{c.key === '/' ? '/' : c.key.slice(c.key.lastIndexOf('/') + 1)}</Link>}
                  {i < all.length - 1 ? <span className="muted"> › </span> : null}
                </span>
              ))
            ) : (
              <span className="mono">{title}</span>
            )}
          </nav>
          <QueryState isPending={inv.isPending} error={inv.error} />
          {!inv.isPending && !container && !inv.error ? (
            <p className="muted" data-testid="cadvisor-not-found">
              The agent does not track {target.kind === 'pod' ? 'this pod' : 'this container'} (yet). <Link href="/containers">Back to the node</Link>
            </p>
          ) : null}
        </Panel>
        {container?.kind === 'node' ? <MachineOverview machine={inv.machine} cgroups={inv.cgroups} /> : null}
        {container ? <ContainerUsage key={container.key} container={container} list={list} machine={inv.machine} /> : null}
      </div>
    </ChartWindowProvider>
  );
}
