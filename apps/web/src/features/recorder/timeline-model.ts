/**
 * Pure model of the flight recorder timelines (per pod and per node): a recorder row → what a timeline line shows
 * (label, summary, tone), and the merge of pages (newest first, upserted by id: a probe span grows in place).
 */
import type { RouterOutputs } from '../../lib/api-types.ts';
import type { Tone } from '../pods/kubectl-status.ts';

export type RecorderEntry = RouterOutputs['recorder']['query']['entries'][number];
export type RecorderKind = RecorderEntry['kind'];

/** The kinds a timeline can filter on, in the order the filter shows them. */
export const TIMELINE_KINDS: readonly RecorderKind[] = ['admission', 'sync', 'pull', 'probe', 'backoff', 'kill', 'container', 'oom', 'eviction', 'gc', 'config', 'event'];

export interface TimelineLine {
  id: number;
  time: string;
  /** For a span: when its last equal result came. */
  last?: string;
  kind: RecorderKind;
  label: string;
  summary: string;
  tone: Tone;
  pod?: { namespace: string; name: string };
  container?: string;
}

function ms(n: unknown): string {
  if (typeof n !== 'number') return '';
  if (n < 1000) return `${n}ms`;
  const s = n / 1000;
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60 ? `${s % 60}s` : ''}`;
}

const BAD_REASONS = /Err|Fail|Error|BackOff|OOM|Evicted|Killing|refuse|OutOf|Invalid|Unhealthy/i;

function summaryOf(e: RecorderEntry): { label: string; summary: string; tone: Tone } {
  const c = e.container ? `${e.container}: ` : '';
  const d = e.details ?? {};
  switch (e.kind) {
    case 'probe': {
      const type = typeof d.probeType === 'string' ? d.probeType : 'probe';
      const span = e.count > 1 ? ` ×${e.count}` : '';
      const tone: Tone = e.reason === 'success' ? 'ok' : e.reason === 'failure' ? 'bad' : 'info';
      return { label: `${type} ${e.reason ?? ''}${span}`, summary: `${c}${e.message ?? (e.reason === 'success' ? 'probe succeeded' : '')}`, tone };
    }
    case 'backoff':
      return { label: `back-off ${ms(d.delayMs)}${e.count > 1 ? ` ×${e.count}` : ''}`.replace('  ', ' ').trim(), summary: `${c}${e.message ?? ''}`, tone: 'warn' };
    case 'admission':
      return { label: e.reason ?? 'admission', summary: e.message ?? (e.reason === 'Admitted' ? 'admitted to the node' : ''), tone: e.reason === 'Admitted' ? 'ok' : 'bad' };
    case 'sync': {
      const failed = typeof d.error === 'string';
      return { label: failed ? `${String(d.action)} ✗` : String(d.action ?? e.reason), summary: `${c}${failed ? `${String(d.error)}: ${e.message ?? ''}` : 'done'}`, tone: failed ? 'bad' : 'info' };
    }
    case 'container':
      return { label: e.reason === 'ContainerDied' ? 'died' : 'started', summary: `${e.container ?? ''}`, tone: e.reason === 'ContainerDied' ? 'warn' : 'ok' };
    case 'oom':
    case 'kill':
    case 'eviction':
      return { label: e.reason ?? e.kind, summary: `${c}${e.message ?? ''}`, tone: e.reason === 'NoPressure' ? 'ok' : e.kind === 'kill' ? 'warn' : 'bad' };
    default:
      return { label: e.reason ?? e.kind, summary: `${c}${e.message ?? ''}`, tone: e.reason && BAD_REASONS.test(e.reason) ? 'warn' : 'info' };
  }
}

export function toTimelineLine(e: RecorderEntry): TimelineLine {
  return {
    id: e.id,
    time: e.time,
    ...(e.last && e.last !== e.time ? { last: e.last } : {}),
    kind: e.kind,
    ...summaryOf(e),
    ...(e.namespace && e.name ? { pod: { namespace: e.namespace, name: e.name } } : {}),
    ...(e.container ? { container: e.container } : {}),
  };
}

/** Pages merged newest first; a row seen again (a grown span) replaces the older copy. */
export function mergeEntries(...pages: RecorderEntry[][]): RecorderEntry[] {
  const byId = new Map<number, RecorderEntry>();
  for (const page of pages) for (const e of page) {
    const old = byId.get(e.id);
    if (!old || e.count >= old.count) byId.set(e.id, e);
  }
  return [...byId.values()].sort((a, b) => (a.time === b.time ? b.id - a.id : a.time < b.time ? 1 : -1));
}
