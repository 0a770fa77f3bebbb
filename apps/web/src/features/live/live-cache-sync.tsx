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
    // A pod's `why` is computed by the agent (pods.why, pods.list rows): refetched, debounced, after its status
    // changes or a Warning event names it (the list only for pods not ready: a ready row shows no why).
    const whyPods = new Map<string, { namespace: string; name: string }>();
    let whyTimer: ReturnType<typeof setTimeout> | undefined;
    let whyList = false;
    const refreshWhy = (pod: { namespace: string; name: string }, list: boolean) => {
      whyPods.set(`${pod.namespace}/${pod.name}`, pod);
      whyList ||= list;
      whyTimer ??= setTimeout(() => {
        whyTimer = undefined;
        if (whyList) void qc.invalidateQueries(listKey);
        whyList = false;
        for (const p of whyPods.values()) void qc.invalidateQueries({ queryKey: trpc.pods.why.queryKey(p) });
        whyPods.clear();
      }, 1500);
    };
    const off = subscribe((e) => {
      for (const fx of cacheEffects(e)) apply(fx);
      if (e.type === 'podStatus') refreshWhy(e.pod, !e.ready);
      else if (e.type === 'k8sEvent' && e.eventType === 'Warning' && e.involvedObject.kind === 'Pod' && e.involvedObject.namespace) refreshWhy({ namespace: e.involvedObject.namespace, name: e.involvedObject.name }, true);
    });
    return () => {
      off();
      clearTimeout(whyTimer);
    };
  }, [trpc, qc, subscribe]);

  return null;
}
