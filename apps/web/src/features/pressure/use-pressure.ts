'use client';
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PressureSample, PressureState } from '../../lib/api-types.ts';
import { useTRPC } from '../../lib/trpc.ts';
import { useLive } from '../live/live-provider.tsx';
import { mergeHistory, patchState, sampleFromEvent } from './pressure-model.ts';

/** eviction.state and eviction.history, patched live by `pressure` events and polled as a fallback. */
export function usePressure() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { subscribe } = useLive();
  const state = useQuery(trpc.eviction.state.queryOptions(undefined, { refetchInterval: 10_000 }));
  const history = useQuery(trpc.eviction.history.queryOptions(undefined, { refetchInterval: 30_000 }));

  useEffect(() => {
    const stateKey = trpc.eviction.state.queryKey();
    const historyKey = trpc.eviction.history.queryKey();
    return subscribe((e) => {
      if (e.type === 'pressure') {
        qc.setQueryData<PressureState | null>(stateKey, (old) => patchState(old, e) ?? old);
        qc.setQueryData<PressureSample[]>(historyKey, (old) => mergeHistory(old, [sampleFromEvent(e)]));
        void qc.invalidateQueries({ queryKey: stateKey });
      }
    });
  }, [trpc, qc, subscribe]);

  return { state: state.data, history: history.data ?? [], error: state.error, isPending: state.isPending };
}
