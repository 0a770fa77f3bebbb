/** Pure model of the GC page: history rows from `gc` events and the agent's last results, newest first. */
import type { GcBusEvent, GcResult } from '../../lib/api-types.ts';

export type GcKind = 'images' | 'containers';

export interface GcRow {
  id: string;
  kind: GcKind;
  trigger: string;
  time: string;
  removed: string[];
  freedBytes: number;
  errors: string[];
}

export function rowFromEvent(e: GcBusEvent): GcRow {
  return { id: `e${e.seq}`, kind: e.kind, trigger: e.trigger, time: e.time, removed: e.removed, freedBytes: e.freedBytes, errors: e.errors };
}

export function rowFromResult(kind: GcKind, r: Pick<GcResult, 'removed' | 'freedBytes' | 'errors' | 'time'> & { trigger?: string }): GcRow {
  return { id: `${kind}@${r.time}`, kind, trigger: r.trigger ?? 'manual', time: r.time, removed: r.removed, freedBytes: r.freedBytes, errors: r.errors };
}

/** Same run seen twice (as an event and as a result): same kind, same time within a second, same removals. */
function sameRun(a: GcRow, b: GcRow): boolean {
  return a.kind === b.kind && Math.abs(Date.parse(a.time) - Date.parse(b.time)) < 1000 && a.removed.join('\n') === b.removed.join('\n');
}

/** Merges rows (dropping duplicates of one run), newest first, at most `max`. */
export function mergeGcRows(rows: readonly GcRow[], max = 100): GcRow[] {
  const out: GcRow[] = [];
  const sorted = [...rows].sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
  for (const r of sorted) if (!out.some((o) => sameRun(o, r))) out.push(r);
  return out.slice(0, max);
}
