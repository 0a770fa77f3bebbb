/**
 * The pod list's view state (search, namespace, phase, sort) as URL search params, so a view can be shared, and
 * the pure filter and sort over row view models. CPU and memory come from one Summary (stats.summary), by pod UID.
 */
import { matchesSelector, parseSelector, type Requirement } from './label-selector.ts';
import type { PodRowView } from './pod-summary.ts';

export const SORT_KEYS = ['name', 'namespace', 'status', 'ready', 'restarts', 'age', 'cpu', 'memory', 'ip', 'qos'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';
export const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;

export interface ListState {
  q: string;
  ns: string;
  phase: string;
  sort: SortKey;
  dir: SortDir;
}

export const DEFAULT_STATE: ListState = { q: '', ns: '', phase: '', sort: 'namespace', dir: 'asc' };

export interface PodUsage {
  cpuCores?: number;
  memoryBytes?: number;
}

export type Row = PodRowView & PodUsage;

type Params = { get(name: string): string | null };

/** Reads the state from URL search params; unknown values fall back to the defaults. */
export function stateFromParams(p: Params): ListState {
  const sort = p.get('sort') ?? '';
  const dir = p.get('dir');
  return {
    q: (p.get('q') ?? '').slice(0, 1024),
    ns: p.get('ns') ?? '',
    phase: (PHASES as readonly string[]).includes(p.get('phase') ?? '') ? p.get('phase')! : '',
    sort: (SORT_KEYS as readonly string[]).includes(sort) ? (sort as SortKey) : DEFAULT_STATE.sort,
    dir: dir === 'desc' ? 'desc' : 'asc',
  };
}

/** The search params of a state: only what differs from the defaults, in a fixed order. */
export function stateToParams(s: ListState): URLSearchParams {
  const out = new URLSearchParams();
  if (s.q) out.set('q', s.q);
  if (s.ns) out.set('ns', s.ns);
  if (s.phase) out.set('phase', s.phase);
  if (s.sort !== DEFAULT_STATE.sort || s.dir !== DEFAULT_STATE.dir) {
    out.set('sort', s.sort);
    out.set('dir', s.dir);
  }
  return out;
}

export type Search =
  | { kind: 'all' }
  | { kind: 'text'; text: string }
  | { kind: 'selector'; requirements: Requirement[] }
  | { kind: 'error'; error: string };

/**
 * The search box: label selector syntax when the text has an operator (`=`, `!`, `<`, `>`, `(`, `,`) or an
 * ` in `/` notin ` (`app=web,tier!=db`, `env in (a,b)`, `!key`, `a,b`); otherwise a word, matched against the
 * pod's name and namespace, or taken as a label key (the selector `key`).
 */
export function parseSearch(q: string): Search {
  const text = q.trim();
  if (!text) return { kind: 'all' };
  if (!/[=!<>(,]|\s(not)?in(\s|\(|$)/.test(text)) return { kind: 'text', text: text.toLowerCase() };
  const r = parseSelector(text);
  return r.ok ? { kind: 'selector', requirements: r.requirements } : { kind: 'error', error: r.error };
}

function matchesSearch(row: Row, s: Search): boolean {
  switch (s.kind) {
    case 'all':
    case 'error':
      return true;
    case 'text':
      return row.name.toLowerCase().includes(s.text) || row.namespace.toLowerCase().includes(s.text) || Object.prototype.hasOwnProperty.call(row.labels, s.text);
    case 'selector':
      return matchesSelector(s.requirements, row.labels);
  }
}

export function filterRows(rows: readonly Row[], state: ListState, search: Search = parseSearch(state.q)): Row[] {
  return rows.filter((r) => (!state.ns || r.namespace === state.ns) && (!state.phase || r.phase === state.phase) && matchesSearch(r, search));
}

/** IPv4 as a number, IPv6 after every IPv4 (by text); no IP last. */
function ipKey(ip: string | undefined): [number, number, string] {
  if (!ip) return [2, 0, ''];
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (!m) return [1, 0, ip];
  return [0, ((+m[1]! * 256 + +m[2]!) * 256 + +m[3]!) * 256 + +m[4]!, ''];
}

function cmp(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The sort value of a row (undefined: not known, sorted last in both directions). */
function value(r: Row, key: SortKey, now: number): number | string | [number, number, string] | undefined {
  switch (key) {
    case 'name': return r.name;
    case 'namespace': return r.namespace;
    case 'status': return r.status;
    case 'ready': return r.total === 0 ? 0 : r.readyCount / r.total;
    case 'restarts': return r.restarts;
    case 'age': return r.createdMs === undefined ? undefined : now - r.createdMs;
    case 'cpu': return r.cpuCores;
    case 'memory': return r.memoryBytes;
    case 'ip': return ipKey(r.podIP);
    case 'qos': return r.qosClass;
  }
}

export function sortRows(rows: readonly Row[], key: SortKey, dir: SortDir, now: number): Row[] {
  const sign = dir === 'asc' ? 1 : -1;
  const tie = (a: Row, b: Row) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name);
  return [...rows].sort((a, b) => {
    const va = value(a, key, now);
    const vb = value(b, key, now);
    if (va === undefined || vb === undefined) return va === vb ? tie(a, b) : va === undefined ? 1 : -1;
    let c: number;
    if (Array.isArray(va) && Array.isArray(vb)) c = cmp(va[0], vb[0]) || cmp(va[1], vb[1]) || cmp(va[2], vb[2]);
    else c = cmp(va as number | string, vb as number | string);
    return sign * c || tie(a, b);
  });
}

/** Clicking a column: the same column flips the direction, another starts ascending. */
export function nextSort(state: ListState, key: SortKey): Pick<ListState, 'sort' | 'dir'> {
  return state.sort === key ? { sort: key, dir: state.dir === 'asc' ? 'desc' : 'asc' } : { sort: key, dir: 'asc' };
}

export interface SummaryPodLike {
  podRef: { uid?: string; namespace?: string; name?: string };
  cpu?: { usageNanoCores?: number };
  memory?: { workingSetBytes?: number };
}

/** CPU (cores) and memory (working set) per pod UID from one Summary. */
export function usageByUid(pods: readonly SummaryPodLike[] | undefined): Map<string, PodUsage> {
  const out = new Map<string, PodUsage>();
  for (const p of pods ?? []) {
    const uid = p.podRef.uid;
    if (!uid) continue;
    const ns = p.cpu?.usageNanoCores;
    out.set(uid, { cpuCores: ns === undefined ? undefined : ns / 1e9, memoryBytes: p.memory?.workingSetBytes });
  }
  return out;
}

/** Keyboard selection: j/k move within the visible rows (clamped), the selection follows its pod when rows change. */
export function moveSelection(keys: readonly string[], current: string | undefined, delta: number): string | undefined {
  if (keys.length === 0) return undefined;
  const i = current === undefined ? -1 : keys.indexOf(current);
  if (i < 0) return keys[delta > 0 ? 0 : keys.length - 1];
  return keys[Math.min(keys.length - 1, Math.max(0, i + delta))];
}
