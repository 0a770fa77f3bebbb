'use client';
import { NodeOverview } from '../features/node/node-overview.tsx';
import { CertificatesPanel } from '../features/node/certificates-panel.tsx';
import { ShutdownPanel } from '../features/node/shutdown-panel.tsx';
import { ClusterPanel } from '../features/nodes/cluster-panel.tsx';
import { useNode } from '../features/node/use-node.ts';
import { Suspense } from 'react';
import { PodList } from '../features/pods/pod-list.tsx';
import { PressurePanel } from '../features/pressure/pressure-panels.tsx';
import { usePressure } from '../features/pressure/use-pressure.ts';
import { useNow } from '../lib/use-now.ts';

export default function HomePage() {
  const node = useNode();
  const now = useNow();
  const pressure = usePressure();
  return (
    <>
      <NodeOverview node={node.data} isPending={node.isPending} error={node.error} now={now} />
      <ClusterPanel node={node.data} now={now} />
      <ShutdownPanel />
      <PressurePanel node={node.data} state={pressure.state} history={pressure.history} isPending={pressure.isPending} error={pressure.error} now={now} />
      {/* The list's state lives in the URL's search params (useSearchParams wants a Suspense boundary). */}
      <Suspense fallback={null}>
        <PodList />
      </Suspense>
      <CertificatesPanel />
    </>
  );
}
