'use client';
/** Folds every live event into the TanStack Query cache (setQueryData / invalidate), app-wide. */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { WirePod } from '../../lib/api-types.ts';
import { useTRPC } from '../../lib/trpc.ts';
import { addDetailEvent, cacheEffects, patchDetailStatus, patchListStatus, removeFromList, type CacheEffect } from './cache-updates.ts';
import { useLive } from './live-provider.tsx';

export function LiveCacheSync() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { subscribe } = useLive();

  useEffect(() => {
    const listKey = { queryKey: trpc.pods.list.pathKey() };
    function apply(fx: CacheEffect): void {
      switch (fx.kind) {
        case 'list-patch-status': {
          let missing = false;
          qc.setQueriesData<WirePod[]>(listKey, (old) => {
            const r = patchListStatus(old, fx.event);
            if (old && !r.found) missing = true;
            return r.pods;
          });
          if (missing) void qc.invalidateQueries(listKey);
          return;
        }
        case 'list-remove':
          qc.setQueriesData<WirePod[]>(listKey, (old) => removeFromList(old, fx.pod));
          return;
        case 'list-invalidate':
          void qc.invalidateQueries(listKey);
          return;
        case 'detail-patch-status': {
          const key = trpc.pods.get.queryKey({ namespace: fx.event.pod.namespace, name: fx.event.pod.name });
          qc.setQueryData(key, (old) => (old === null ? old : patchDetailStatus(old, fx.event)));
          return;
        }
        case 'detail-add-event': {
          const key = trpc.pods.get.queryKey(fx.pod);
          qc.setQueryData(key, (old) => (old === null ? old : addDetailEvent(old, fx.event)));
          return;
        }
        case 'detail-invalidate':
          void qc.invalidateQueries({ queryKey: trpc.pods.get.queryKey(fx.pod) });
          return;
        case 'node-invalidate':
          void qc.invalidateQueries({ queryKey: trpc.node.get.queryKey() });
          return;
      }
    }
    return subscribe((e) => {
      for (const fx of cacheEffects(e)) apply(fx);
    });
  }, [trpc, qc, subscribe]);

  return null;
}
