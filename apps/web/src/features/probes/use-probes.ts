'use client';
import { useEffect, useReducer } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProbeBusEvent, ProbeWorkerInfo } from '../../lib/api-types.ts';
import { useTRPC } from '../../lib/trpc.ts';
import { useLive } from '../live/live-provider.tsx';
import { addProbeEvents, patchWorkers, type ProbeTimelines } from './probe-model.ts';

type TimelineAction = { type: 'events'; events: ProbeBusEvent[] } | { type: 'reset' };

function timelineReducer(state: ProbeTimelines, a: TimelineAction): ProbeTimelines {
  return a.type === 'reset' ? {} : addProbeEvents(state, a.events);
}

/**
 * The pod's probe table (probes.list) and per-probe timelines (probes.recent), both kept live from
 * `probe` events on the socket. While mounted, asks the agent for every run (not only changes).
 */
export function usePodProbes(namespace: string, pod: string) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { subscribe, requestProbeRuns, epoch } = useLive();
  const [timelines, dispatch] = useReducer(timelineReducer, {});
  const list = useQuery(trpc.probes.list.queryOptions({ namespace, pod }, { refetchInterval: 15_000 }));
  const recent = useQuery(trpc.probes.recent.queryOptions({ namespace, pod, limit: 1000 }, { staleTime: Infinity }));
  const { refetch } = recent;

  useEffect(() => requestProbeRuns(), [requestProbeRuns]);

  useEffect(() => {
    if (recent.data) dispatch({ type: 'events', events: recent.data });
  }, [recent.data]);

  useEffect(
    () => {
      const listKey = trpc.probes.list.queryKey({ namespace, pod });
      return subscribe((e) => {
        if (e.type !== 'probe' || e.pod.namespace !== namespace || e.pod.name !== pod) return;
        dispatch({ type: 'events', events: [e] });
        let missing = false;
        qc.setQueryData<ProbeWorkerInfo[]>(listKey, (old) => {
          const r = patchWorkers(old, e);
          if (old && !r.found) missing = true;
          return r.list;
        });
        if (missing) void qc.invalidateQueries({ queryKey: listKey });
      });
    },
    [subscribe, qc, trpc, namespace, pod],
  );

  useEffect(() => {
    if (epoch === 0) return;
    dispatch({ type: 'reset' });
    void refetch();
  }, [epoch, refetch]);

  return { workers: list.data ?? [], timelines, error: list.error };
}
