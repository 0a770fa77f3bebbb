'use client';
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc.ts';
import { podRowView, sortPodRows } from './pod-summary.ts';

/** pods.list (kept live by LiveCacheSync) as sorted row view models. */
export function usePodRows() {
  const trpc = useTRPC();
  const q = useQuery(trpc.pods.list.queryOptions(undefined, { refetchInterval: 30_000 }));
  const rows = useMemo(() => (q.data ? sortPodRows(q.data.map(podRowView)) : undefined), [q.data]);
  return { rows, isPending: q.isPending, error: q.error };
}
