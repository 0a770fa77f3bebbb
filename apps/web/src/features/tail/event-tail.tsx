'use client';
import { useMemo, useState } from 'react';
import { Panel, QueryState } from '../../lib/ui.tsx';
import { TailFilters } from './tail-filters.tsx';
import { EMPTY_FILTER, rowMatches, type TailFilter } from './tail-model.ts';
import { TailTable } from './tail-table.tsx';
import { useEventTail } from './use-event-tail.ts';

const SCOPE = {};

/** The /events page: the whole node's lifecycle tail with client-side filters and pause/resume. */
export function EventTail() {
  const tail = useEventTail(SCOPE, 500);
  const [filter, setFilter] = useState<TailFilter>(EMPTY_FILTER);
  const shown = useMemo(() => tail.rows.filter((r) => rowMatches(r, filter)), [tail.rows, filter]);
  const namespaces = useMemo(() => [...new Set(tail.rows.flatMap((r) => (r.namespace ? [r.namespace] : [])))].sort(), [tail.rows]);
  const pending = tail.pending.length;

  const actions = (
    <>
      <span className="muted" data-testid="tail-count">
        {shown.length} of {tail.rows.length} events
      </span>
      {tail.paused ? (
        <span className="pending" data-testid="tail-pending" data-count={pending}>
          {pending} new while paused
        </span>
      ) : null}
      <button type="button" className={`btn${tail.paused ? ' btn-primary' : ''}`} data-testid="tail-pause" data-paused={tail.paused} onClick={tail.paused ? tail.resume : tail.pause}>
        {tail.paused ? `Resume${pending ? ` (${pending})` : ''}` : 'Pause'}
      </button>
    </>
  );

  return (
    <Panel title="Lifecycle tail" actions={actions}>
      <TailFilters filter={filter} namespaces={namespaces} onChange={setFilter} />
      <QueryState isPending={tail.isPending && tail.rows.length === 0} error={tail.rows.length ? null : tail.error} />
      <TailTable rows={shown} />
    </Panel>
  );
}
