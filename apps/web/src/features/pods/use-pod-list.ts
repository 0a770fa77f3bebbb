'use client';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc.ts';
import { askView, urlSeen, type AskedView } from './asked-view.ts';
import { filterRows, parseSearch, sortRows, stateFromParams, usageByUid, type ListState, type Row } from './pod-list-model.ts';
import { usePodRows } from './use-pods.ts';

/** Where the list was last shown (with its search params): the pod page's Esc goes back there. */
export const LIST_HREF_KEY = 'nodelet.podList.href';

/**
 * The pod list: pods.list rows (kept live by LiveCacheSync) with CPU / memory from ONE stats.summary query,
 * filtered and sorted by the state in the URL's search params (replaced, not pushed, as the user types).
 */
export function usePodList(now: number) {
  const trpc = useTRPC();
  const pods = usePodRows();
  const summary = useQuery(trpc.stats.summary.queryOptions({ onlyCpuAndMemory: true }, { refetchInterval: 10_000 }));
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const state = useMemo(() => stateFromParams(params), [params]);
  const search = useMemo(() => parseSearch(state.q), [state.q]);
  const usage = useMemo(() => usageByUid(summary.data?.pods), [summary.data]);
  const all: Row[] | undefined = useMemo(() => pods.rows?.map((r) => ({ ...r, ...usage.get(r.uid) })), [pods.rows, usage]);
  const namespaces = useMemo(() => [...new Set((all ?? []).map((r) => r.namespace))].sort(), [all]);
  const rows = useMemo(() => (all ? sortRows(filterRows(all, state, search), state.sort, state.dir, now) : undefined), [all, state, search, now]);
  // Changes asked but not yet in the URL (asked-view.ts): a second change builds on the first, not on the URL.
  const asked = useRef<AskedView | undefined>(undefined);
  useEffect(() => {
    asked.current = urlSeen(asked.current, params.toString());
  }, [params]);
  const setState = useCallback(
    (patch: Partial<ListState>) => {
      asked.current = askView(asked.current, state, patch);
      const qs = asked.current.qs.at(-1) ?? '';
      const href = qs ? `${pathname}?${qs}` : pathname;
      if (typeof window !== 'undefined') window.sessionStorage.setItem(LIST_HREF_KEY, href);
      router.replace(href, { scroll: false });
    },
    [state, pathname, router],
  );
  return { rows, total: all?.length, namespaces, state, setState, searchError: search.kind === 'error' ? search.error : undefined, isPending: pods.isPending, error: pods.error };
}
