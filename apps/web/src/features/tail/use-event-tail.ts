'use client';
import { useCallback, useEffect, useReducer } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { NodeletEvent } from '../../lib/api-types.ts';
import { useTRPC } from '../../lib/trpc.ts';
import { useLive } from '../live/live-provider.tsx';
import { eventInScope, initialTail, tailReducer } from './tail-model.ts';

export interface TailScope {
  namespace?: string;
  pod?: string;
}

/**
 * A live, newest-first buffer of events in `scope`: the agent's recent events (events.recent) merged
 * with every matching socket.io nodelet:event, deduplicated by seq. Pause buffers new rows.
 */
export function useEventTail(scope: TailScope, max = 500) {
  const trpc = useTRPC();
  const { subscribe, epoch } = useLive();
  const [state, dispatch] = useReducer(tailReducer, max, initialTail);
  const { namespace, pod } = scope;
  const recent = useQuery(trpc.events.recent.queryOptions({ namespace, pod, limit: max }, { staleTime: Infinity }));
  const { refetch } = recent;

  useEffect(() => {
    // Wire shape (dates as strings inside podStatus.status); the tail reads no Date fields.
    if (recent.data) dispatch({ type: 'events', events: recent.data as unknown as NodeletEvent[] });
  }, [recent.data]);

  useEffect(
    () =>
      subscribe((e) => {
        if (eventInScope(e, { namespace, pod })) dispatch({ type: 'events', events: [e] });
      }),
    [subscribe, namespace, pod],
  );

  useEffect(() => {
    if (epoch === 0) return;
    dispatch({ type: 'reset' });
    void refetch();
  }, [epoch, refetch]);

  const pause = useCallback(() => dispatch({ type: 'pause' }), []);
  const resume = useCallback(() => dispatch({ type: 'resume' }), []);
  return { ...state, pause, resume, isPending: recent.isPending, error: recent.error };
}
