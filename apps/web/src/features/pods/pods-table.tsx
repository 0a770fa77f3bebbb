'use client';
import Link from 'next/link';
import { memo, useEffect, useRef } from 'react';
import { formatAge, formatBytes, formatCores } from '../../lib/format.ts';
import { Badge } from '../../lib/ui.tsx';
import { ContainerChips } from './container-chips.tsx';
import type { ListState, Row, SortKey } from './pod-list-model.ts';
import { graceLeftSeconds } from './pod-summary.ts';

export const podHref = (r: Pick<Row, 'namespace' | 'name'>) => `/pods/${encodeURIComponent(r.namespace)}/${encodeURIComponent(r.name)}`;

const COLUMNS: Array<{ key: SortKey; label: string; num?: boolean }> = [
  { key: 'name', label: 'Name' },
  { key: 'namespace', label: 'Namespace' },
  { key: 'status', label: 'Status' },
  { key: 'ready', label: 'Ready', num: true },
  { key: 'restarts', label: 'Restarts', num: true },
  { key: 'age', label: 'Age', num: true },
  { key: 'cpu', label: 'CPU', num: true },
  { key: 'memory', label: 'Memory', num: true },
  { key: 'ip', label: 'Pod IP' },
  { key: 'qos', label: 'QoS' },
];

function StatusCell({ r, now }: { r: Row; now: number }) {
  const left = r.status === 'Terminating' ? graceLeftSeconds(r, now) : undefined;
  return (
    <>
      <Badge tone={r.phaseTone} testId={`pod-phase-${r.namespace}-${r.name}`} title={r.why ?? `phase ${r.phase}`}>{r.status}</Badge>
      {left !== undefined ? (
        <span className="grace" data-testid={`pod-grace-${r.namespace}-${r.name}`} title="deletionTimestamp − now: the grace period left">
          {left}s
        </span>
      ) : null}
      {r.why ? <div className="why" data-testid={`pod-why-${r.namespace}-${r.name}`} title={r.why}>{r.why}</div> : null}
    </>
  );
}

const PodRow = memo(function PodRow({ r, now, selected }: { r: Row; now: number; selected: boolean }) {
  const ref = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);
  return (
    <tr
      ref={ref}
      className={selected ? 'selected' : undefined}
      aria-selected={selected}
      data-testid={`pod-row-${r.namespace}-${r.name}`}
      data-phase={r.phase}
      data-status={r.status}
      data-restarts={r.restarts}
    >
      <td>
        <Link prefetch={false} href={podHref(r)}>{r.name}</Link>
        <div className="row-chips"><ContainerChips containers={r.containers} /></div>
      </td>
      <td className="muted">{r.namespace}</td>
      <td className="nowrap"><StatusCell r={r} now={now} /></td>
      <td className="num">{r.readyCount}/{r.total}</td>
      <td className="num nowrap">
        {r.restarts}
        {r.lastRestartMs !== undefined ? <span className="muted"> ({formatAge(r.lastRestartMs, now)} ago)</span> : null}
      </td>
      <td className="num">{formatAge(r.createdMs, now)}</td>
      <td className="num">{formatCores(r.cpuCores)}</td>
      <td className="num">{formatBytes(r.memoryBytes)}</td>
      <td className="mono">{r.podIP ?? '-'}</td>
      <td>{r.qosClass ?? '-'}</td>
    </tr>
  );
});

interface Props {
  rows: Row[];
  state: ListState;
  onSort: (key: SortKey) => void;
  selected?: string;
  now: number;
}

export function PodsTable({ rows, state, onSort, selected, now }: Props) {
  return (
    <div className="table-scroll">
      <table className="table pods-table" data-testid="pods-table">
        <thead>
          <tr>
            {COLUMNS.map((c) => {
              const active = state.sort === c.key;
              return (
                <th key={c.key} className={c.num ? 'num' : undefined} aria-sort={active ? (state.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="sort" onClick={() => onSort(c.key)} data-testid={`sort-${c.key}`}>
                    {c.label}
                    <span aria-hidden className="sort-mark">{active ? (state.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length} className="muted">No pods match.</td>
            </tr>
          ) : null}
          {rows.map((r) => <PodRow key={r.key} r={r} now={now} selected={r.key === selected} />)}
        </tbody>
      </table>
    </div>
  );
}
