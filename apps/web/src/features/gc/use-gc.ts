'use client';
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { GcBusEvent } from '../../lib/api-types.ts';
import { useTRPC } from '../../lib/trpc.ts';
import { useLive } from '../live/live-provider.tsx';
import { mergeGcRows, rowFromEvent, rowFromResult, type GcKind, type GcRow } from './gc-model.ts';
import { useGcTrigger, type GcRun } from './use-gc-trigger.ts';

/** GC controls (gc.images / gc.containers mutations), policies, and the run history (events + results). */
export function useGc() {
  const trpc = useTRPC();
  const { subscribe } = useLive();
  const policies = useQuery(trpc.gc.policies.queryOptions(undefined, { staleTime: 60_000 }));
  const last = useQuery(trpc.gc.last.queryOptions(undefined, { refetchInterval: 30_000 }));
  // The agent's events.recent filter does not know the 'gc' type: fetch recent events and keep the gc ones.
  const recent = useQuery(trpc.events.recent.queryOptions({ limit: 2000 }, { staleTime: Infinity }));
  const [live, setLive] = useState<GcRow[]>([]);
  const [mine, setMine] = useState<GcRow[]>([]);

  useEffect(
    () => subscribe((e) => {
      if (e.type === 'gc') setLive((old) => [rowFromEvent(e), ...old].slice(0, 100));
    }),
    [subscribe],
  );

  const onDone = (kind: GcKind) => (r: GcRun) => setMine((old) => [rowFromResult(kind, r), ...old].slice(0, 100));
  const images = useGcTrigger('images', onDone('images'));
  const containers = useGcTrigger('containers', onDone('containers'));

  const history = useMemo(() => {
    const fromRecent = (recent.data ?? []).filter((e): e is GcBusEvent => e.type === 'gc').map(rowFromEvent);
    const fromLast: GcRow[] = [];
    if (last.data?.images) fromLast.push(rowFromResult('images', last.data.images));
    if (last.data?.containers) fromLast.push(rowFromResult('containers', last.data.containers));
    return mergeGcRows([...mine, ...live, ...fromRecent, ...fromLast]);
  }, [recent.data, last.data, live, mine]);

  return { policies: policies.data, history, images, containers, error: policies.error ?? last.error };
}
