'use client';
/** Every image on the node: size, tags, pods using it, last used, and what the next image GC would do with it. */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatAge, formatBytes, formatTimestamp } from '../../lib/format.ts';
import { SortHeader } from '../../lib/sort-header.tsx';
import { useTRPC } from '../../lib/trpc.ts';
import { Badge, Panel, QueryState } from '../../lib/ui.tsx';
import { useNow } from '../../lib/use-now.ts';
import { useGcTrigger } from '../gc/use-gc-trigger.ts';
import { imageName, reclaimable, sortImages, type ImageSortKey } from './images-model.ts';

const COLUMNS: Array<{ key?: ImageSortKey; label: string; num?: boolean; title?: string }> = [
  { key: 'name', label: 'Image' },
  { key: 'size', label: 'Size', num: true },
  { key: 'pods', label: 'Used by' },
  { key: 'lastUsed', label: 'Last used', title: 'when the image GC last saw a container using it (or first saw the image)' },
  { label: 'Next GC', title: 'what the next periodic image GC would do, with the image filesystem as it is now' },
  { label: 'Manual GC', title: 'what "Run image GC" would do: remove every unused image older than imageMinimumGCAge' },
];

export function ImagesView() {
  const trpc = useTRPC();
  const inv = useQuery(trpc.images.list.queryOptions(undefined, { refetchInterval: 15_000 }));
  const gc = useGcTrigger('images');
  const now = useNow();
  const [sort, setSort] = useState<{ key: ImageSortKey; desc: boolean }>({ key: 'size', desc: true });
  const items = inv.data?.images ?? [];
  const rows = useMemo(() => sortImages(items, sort.key, sort.desc), [items, sort]);
  const manual = reclaimable(items, 'manualGc');
  const fs = inv.data?.imageFs;
  const last = gc.mutation.data;
  return (
    <div className="stack" data-testid="images-page">
      <Panel
        title={`Images (${items.length})`}
        actions={
          <button type="button" className="btn btn-primary" data-testid="images-gc-button" disabled={gc.isRunning} aria-busy={gc.isRunning} onClick={gc.run}>
            {gc.isRunning ? 'Collecting images…' : 'Run image GC'}
          </button>
        }
      >
        <p className="muted small">
          {fs ? `Image filesystem ${fs.usagePercent ?? '?'}% used (${formatBytes(fs.capacityBytes - fs.availableBytes)} of ${formatBytes(fs.capacityBytes)}). ` : ''}
          A manual GC would remove {manual.count} image{manual.count === 1 ? '' : 's'} ({formatBytes(manual.bytes)}).
        </p>
        {last ? (
          <p className="small" data-testid="images-gc-result" data-removed={last.removed.length}>
            Last run removed {last.removed.length} image{last.removed.length === 1 ? '' : 's'}, freed {formatBytes(last.freedBytes)}
            {last.errors.length ? <span className="error-text"> — {last.errors.join('; ')}</span> : null}
          </p>
        ) : null}
        {gc.mutation.error ? <p className="error-text small">Image GC failed: {gc.mutation.error.message}</p> : null}
        <QueryState isPending={inv.isPending} error={inv.error} />
        {inv.data === null ? <p className="muted">The agent reports no image inventory (no image GC).</p> : null}
        <div className="table-scroll">
          <table className="table" data-testid="images-table">
            <thead>
              <tr>
                {COLUMNS.map((c) =>
                  c.key ? (
                    <SortHeader key={c.label} label={c.label} num={c.num} title={c.title} active={sort.key === c.key} desc={sort.desc} testId={`images-sort-${c.key}`}
                      onSort={() => setSort((s) => ({ key: c.key!, desc: s.key === c.key ? !s.desc : c.key !== 'name' }))} />
                  ) : (
                    <th key={c.label} title={c.title}>{c.label}</th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((i) => (
                <tr key={i.id} data-testid="image-row" data-image={imageName(i)} data-next-gc={i.nextGc.remove ? 'remove' : 'keep'} data-manual-gc={i.manualGc.remove ? 'remove' : 'keep'}>
                  <td>
                    <div className="mono small">{imageName(i)}</div>
                    {i.tags.slice(1).map((t) => <div key={t} className="mono small muted">{t}</div>)}
                    <div className="mono small muted" title={i.id}>{i.id.replace(/^sha256:/, '').slice(0, 12)}{i.pinned ? ' · pinned' : ''}</div>
                  </td>
                  <td className="num">{formatBytes(i.sizeBytes)}</td>
                  <td data-testid="image-pods">{i.pods.length ? i.pods.map((p) => <div key={p} className="mono small">{p}</div>) : <span className="muted">—</span>}</td>
                  <td className="nowrap" title={formatTimestamp(i.lastUsed)}>{i.inUse ? 'in use' : `${formatAge(i.lastUsed, now)} ago`}</td>
                  <td title={i.nextGc.why}>
                    {i.nextGc.remove ? <Badge tone="warn">removes ({i.nextGc.reason})</Badge> : <Badge tone="ok">keeps</Badge>}
                    <div className="small muted">{i.nextGc.why}</div>
                  </td>
                  <td title={i.manualGc.why}>{i.manualGc.remove ? <Badge tone="warn">removes</Badge> : <Badge tone="ok">keeps</Badge>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>
    </div>
  );
}
