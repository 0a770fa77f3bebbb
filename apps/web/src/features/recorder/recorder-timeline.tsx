'use client';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatTimestamp } from '../../lib/format.ts';
import { useTRPC, useTRPCClient } from '../../lib/trpc.ts';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import './timeline.css';
import { mergeEntries, TIMELINE_KINDS, toTimelineLine, type RecorderEntry, type RecorderKind } from './timeline-model.ts';

const PAGE = 200;

/**
 * The flight recorder's timeline, newest first: one pod's (podUID) or the node's. The newest page is polled every
 * 2 s (a growing probe span updates in place); "Older" pages back through the recorder with its cursor. The rows
 * come from the node's database, so they are there after an agent restart.
 */
export function RecorderTimeline({ podUID, title, showPod }: { podUID?: string; title: string; showPod: boolean }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [kinds, setKinds] = useState<RecorderKind[]>([]);
  const [older, setOlder] = useState<{ entries: RecorderEntry[]; cursor?: string | undefined }>({ entries: [] });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const input = { ...(podUID ? { podUID } : {}), ...(kinds.length ? { kinds } : {}), order: 'desc' as const, limit: PAGE };
  const newest = useQuery(trpc.recorder.query.queryOptions(input, { refetchInterval: 2000 }));
  const cursor = older.entries.length ? older.cursor : newest.data?.nextCursor;
  const lines = useMemo(() => mergeEntries(newest.data?.entries ?? [], older.entries).map(toTimelineLine), [newest.data, older.entries]);

  const toggle = (k: RecorderKind) => {
    setOlder({ entries: [] });
    setKinds((ks) => (ks.includes(k) ? ks.filter((x) => x !== k) : [...ks, k]));
  };
  const loadOlder = async () => {
    if (!cursor) return;
    setLoadingOlder(true);
    try {
      const page = await client.recorder.query.query({ ...input, cursor });
      setOlder((o) => ({ entries: [...o.entries, ...page.entries], cursor: page.nextCursor }));
    } finally {
      setLoadingOlder(false);
    }
  };

  return (
    <Panel title={title} testId="recorder-timeline" actions={<span className="muted" data-testid="recorder-count">{lines.length} rows</span>}>
      <div className="filters recorder-kinds" role="group" aria-label="Kinds">
        {TIMELINE_KINDS.map((k) => (
          <button key={k} type="button" className={kinds.includes(k) ? 'chip active' : 'chip'} aria-pressed={kinds.includes(k)} onClick={() => toggle(k)} data-testid={`recorder-kind-${k}`}>
            {k}
          </button>
        ))}
      </div>
      <QueryState isPending={newest.isPending} error={newest.error} />
      <ol className="timeline" data-testid="recorder-rows">
        {!newest.isPending && lines.length === 0 ? <li className="muted">Nothing recorded yet.</li> : null}
        {lines.map((l) => (
          <li key={l.id} className="timeline-row" data-testid="recorder-row" data-kind={l.kind} data-id={l.id}>
            <time className="mono nowrap" dateTime={l.time} title={l.last ? `until ${formatTimestamp(l.last)}` : undefined}>
              {formatTimestamp(l.time)}
              {l.last ? <span className="muted"> → {formatTimestamp(l.last).slice(11)}</span> : null}
            </time>
            <span className={`type type-${l.kind}`}>{l.kind}</span>
            <Badge tone={l.tone}>{l.label}</Badge>
            {showPod && l.pod ? (
              <Link prefetch={false} href={`/recorder/pods/${encodeURIComponent(l.pod.namespace)}/${encodeURIComponent(l.pod.name)}`} className="nowrap">
                <span className="muted">{l.pod.namespace}/</span>
                {l.pod.name}
              </Link>
            ) : null}
            <span className="summary">{l.summary}</span>
          </li>
        ))}
      </ol>
      {cursor ? (
        <button type="button" onClick={() => void loadOlder()} disabled={loadingOlder} data-testid="recorder-older">
          {loadingOlder ? 'Loading…' : 'Older'}
        </button>
      ) : null}
    </Panel>
  );
}
