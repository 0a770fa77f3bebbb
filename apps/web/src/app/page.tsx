'use client';
import { NodeOverview } from '../features/node/node-overview.tsx';
import { ClusterPanel } from '../features/nodes/cluster-panel.tsx';
import { useNode } from '../features/node/use-node.ts';
import { PodsTable } from '../features/pods/pods-table.tsx';
import { PressurePanel } from '../features/pressure/pressure-panels.tsx';
import { usePressure } from '../features/pressure/use-pressure.ts';
import { usePodRows } from '../features/pods/use-pods.ts';
import { useNow } from '../lib/use-now.ts';

export default function HomePage() {
  const node = useNode();
  const pods = usePodRows();
  const now = useNow();
  const pressure = usePressure();
  return (
    <>
      <NodeOverview node={node.data} isPending={node.isPending} error={node.error} now={now} />
      <ClusterPanel node={node.data} now={now} />
      <PressurePanel node={node.data} state={pressure.state} history={pressure.history} isPending={pressure.isPending} error={pressure.error} now={now} />
      <PodsTable rows={pods.rows} isPending={pods.isPending} error={pods.error} now={now} />
    </>
  );
}
