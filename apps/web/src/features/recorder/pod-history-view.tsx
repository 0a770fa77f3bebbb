'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc.ts';
import { QueryState } from '../../lib/ui.tsx';
import { RecorderTimeline } from './recorder-timeline.tsx';

/** One pod's flight recorder timeline: the pod's UID from the agent (or `?uid=` for a pod no longer on the node). */
export function PodHistoryView({ namespace, name, uid }: { namespace: string; name: string; uid?: string }) {
  const trpc = useTRPC();
  const detail = useQuery({ ...trpc.pods.get.queryOptions({ namespace, name }), enabled: !uid });
  const podUID = uid ?? detail.data?.pod.metadata?.uid;
  const back = `/pods/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
  return (
    <div data-testid="pod-history">
      <p>
        <Link href={back}>← {namespace}/{name}</Link>
      </p>
      {uid ? null : <QueryState isPending={detail.isPending} error={detail.error} />}
      {!uid && detail.data === null ? <p className="muted" data-testid="pod-history-not-found">This pod is not on the node; open its history with <code>?uid=</code> and its UID.</p> : null}
      {podUID ? <RecorderTimeline podUID={podUID} title={`History of ${namespace}/${name}`} showPod={false} /> : null}
    </div>
  );
}
