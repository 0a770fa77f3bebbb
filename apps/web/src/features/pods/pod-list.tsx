'use client';
import { useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Panel, QueryState } from '../../lib/ui.tsx';
import { PodListControls } from './pod-list-controls.tsx';
import { moveSelection, nextSort, type SortKey } from './pod-list-model.ts';
import { podHref, PodsTable } from './pods-table.tsx';
import { useGraceNow } from './use-grace-now.ts';
import { useListKeyboard } from './use-list-keyboard.ts';
import { LIST_HREF_KEY, usePodList } from './use-pod-list.ts';

/** The node's pods: search, filters, sortable columns, URL state and keyboard navigation (j/k, /, Enter). */
export function PodList() {
  const [terminating, setTerminating] = useState(false);
  const now = useGraceNow(terminating);
  const list = usePodList(now);
  useEffect(() => setTerminating(Boolean(list.rows?.some((r) => r.status === 'Terminating'))), [list.rows]);
  const router = useRouter();
  const params = useSearchParams();
  const searchRef = useRef<HTMLInputElement>(null);
  const [selected, setSelected] = useState<string | undefined>();
  const keys = useMemo(() => (list.rows ?? []).map((r) => r.key), [list.rows]);

  useEffect(() => {
    const qs = params.toString();
    window.sessionStorage.setItem(LIST_HREF_KEY, qs ? `/?${qs}` : '/');
  }, [params]);

  const move = useCallback((delta: number) => setSelected((cur) => moveSelection(keys, cur, delta)), [keys]);
  const open = useCallback(() => {
    const r = list.rows?.find((x) => x.key === selected);
    if (r) router.push(podHref(r));
  }, [list.rows, selected, router]);
  useListKeyboard({ search: searchRef, move, open });
  const onSort = useCallback((key: SortKey) => list.setState(nextSort(list.state, key)), [list]);

  const title = list.rows ? `Pods (${list.rows.length}${list.total !== list.rows.length ? ` of ${list.total}` : ''})` : 'Pods';
  return (
    <Panel title={title} testId="pod-list" actions={<span className="muted small">j/k move · Enter open · / search</span>}>
      <PodListControls state={list.state} setState={list.setState} namespaces={list.namespaces} searchError={list.searchError} searchRef={searchRef} />
      <QueryState isPending={list.isPending && !list.rows} error={list.rows ? null : list.error} />
      {list.rows ? <PodsTable rows={list.rows} state={list.state} onSort={onSort} selected={selected} now={now} /> : null}
    </Panel>
  );
}
