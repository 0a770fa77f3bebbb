'use client';
/** "Why isn't my pod running?": the agent's one-line explanation (pods.why), shown while the pod is not Running and Ready. */
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc.ts';

export function PodWhy({ namespace, name }: { namespace: string; name: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.pods.why.queryOptions({ namespace, name }, { refetchInterval: 10_000 }));
  if (!q.data) return null;
  return (
    <p className="why-callout" data-testid="pod-why" data-reason={q.data.reason} role="status">
      <strong>Why isn&apos;t it running?</strong> {q.data.text}
    </p>
  );
}
