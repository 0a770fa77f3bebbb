'use client';
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShutdownProgress } from '../../lib/api-types.ts';
import { useTRPC } from '../../lib/trpc.ts';
import { useLive } from '../live/live-provider.tsx';

/** shutdown.progress, replaced by every live `shutdown` event (each carries all of it); polled as a fallback. */
export function useShutdownProgress() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { subscribe } = useLive();
  const q = useQuery(trpc.shutdown.progress.queryOptions(undefined, { refetchInterval: 30_000 }));
  useEffect(() => {
    const key = trpc.shutdown.progress.queryKey();
    let lastSeq = 0;
    return subscribe((e) => {
      if (e.type !== 'shutdown' || e.seq <= lastSeq) return;
      lastSeq = e.seq;
      qc.setQueryData<ShutdownProgress | null>(key, e.progress);
    });
  }, [trpc, qc, subscribe]);
  return q;
}
