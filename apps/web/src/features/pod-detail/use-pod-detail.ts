'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc.ts';

/** pods.get (status and k8s events patched live by LiveCacheSync). */
export function usePodDetail(namespace: string, name: string) {
  const trpc = useTRPC();
  return useQuery(trpc.pods.get.queryOptions({ namespace, name }, { refetchInterval: 30_000 }));
}
