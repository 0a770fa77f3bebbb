'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc.ts';

/** node.get, refreshed every 10s (health checks change without events) and invalidated by live events. */
export function useNode() {
  const trpc = useTRPC();
  return useQuery(trpc.node.get.queryOptions(undefined, { refetchInterval: 10_000 }));
}
