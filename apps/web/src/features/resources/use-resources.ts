'use client';
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc.ts';
import { useLive } from '../live/live-provider.tsx';
import { changesResources } from './resources-model.ts';

/** resources.get, asked again (debounced) after each live event that may change it, and every 30 s. */
export function useResources() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { subscribe } = useLive();
  const query = useQuery(trpc.resources.get.queryOptions(undefined, { refetchInterval: 30_000 }));

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = subscribe((e) => {
      if (!changesResources(e)) return;
      timer ??= setTimeout(() => {
        timer = undefined;
        void qc.invalidateQueries({ queryKey: trpc.resources.get.queryKey() });
      }, 300);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [trpc, qc, subscribe]);

  return query;
}
