'use client';
/**
 * One GC button's behaviour (GC page and images page): run gc.images / gc.containers, and stay disabled while a GC
 * of that kind runs — started here (a second click before the first request even left does nothing), from another
 * tab, or by the agent itself (images.gcRunning, polled while the button is on screen).
 */
import { useCallback, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc.ts';
import type { GcKind } from './gc-model.ts';

export interface GcRun {
  removed: string[];
  freedBytes: number;
  errors: string[];
  time: string;
}

export function useGcTrigger(kind: GcKind, onDone?: (r: GcRun) => void) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const running = useQuery(trpc.images.gcRunning.queryOptions(undefined, { refetchInterval: 2_000, staleTime: 0 }));
  const mutation = useMutation(trpc.gc[kind].mutationOptions({ onSuccess: onDone }));
  const busy = useRef(false);
  const [starting, setStarting] = useState(false);
  const run = useCallback(() => {
    if (busy.current) return;
    busy.current = true;
    setStarting(true);
    mutation.mutate(undefined, {
      onSettled: () => {
        busy.current = false;
        setStarting(false);
        void qc.invalidateQueries({ queryKey: trpc.images.pathKey() });
        void qc.invalidateQueries({ queryKey: trpc.gc.last.queryKey() });
      },
    });
  }, [mutation, qc, trpc]);
  const isRunning = starting || mutation.isPending || !!running.data?.[kind];
  return { run, isRunning, mutation };
}
