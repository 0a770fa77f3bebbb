'use client';
import { NodeOverview } from '../features/node/node-overview.tsx';
import { useNode } from '../features/node/use-node.ts';
import { PodsTable } from '../features/pods/pods-table.tsx';
import { usePodRows } from '../features/pods/use-pods.ts';
import { useNow } from '../lib/use-now.ts';

export default function HomePage() {
  const node = useNode();
  const pods = usePodRows();
  const now = useNow();
  return (
    <>
      <NodeOverview node={node.data} isPending={node.isPending} error={node.error} now={now} />
      <PodsTable rows={pods.rows} isPending={pods.isPending} error={pods.error} now={now} />
    </>
  );
}
