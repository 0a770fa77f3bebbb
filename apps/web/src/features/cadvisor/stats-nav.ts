/** Pure helpers of the cAdvisor pages: route ↔ stats key, display names, children, ranked subcontainers. */
import type { ContainerSample, StatsContainer } from '../../lib/api-types.ts';
import { counterRate, NS_PER_CORE_SECOND } from './stats-math.ts';

/** `/containers/<path…>` → the logical cgroup key ('/' for the node). */
export function keyFromPath(segments: readonly string[] | undefined): string {
  const parts = (segments ?? []).map((s) => decodeURIComponent(s)).filter((s) => s.length > 0);
  return `/${parts.join('/')}`;
}

/** The page of a stats container: pods get their own route, everything else its cgroup path. */
export function hrefFor(c: Pick<StatsContainer, 'key' | 'kind' | 'labels'>): string {
  if (c.kind === 'pod' && c.labels.namespace && c.labels.pod) {
    return `/containers/pods/${encodeURIComponent(c.labels.namespace)}/${encodeURIComponent(c.labels.pod)}`;
  }
  if (c.key === '/') return '/containers';
  return `/containers${c.key.split('/').map(encodeURIComponent).join('/')}`;
}

export function findPodContainer(list: readonly StatsContainer[] | undefined, namespace: string, name: string): StatsContainer | undefined {
  return list?.find((c) => c.kind === 'pod' && c.labels.namespace === namespace && c.labels.pod === name);
}

export function displayName(c: Pick<StatsContainer, 'key' | 'kind' | 'labels'>): string {
  const l = c.labels;
  if (c.kind === 'node') return 'node';
  if (c.kind === 'container' && l.container) return l.pod ? `${l.namespace ?? 'default'}/${l.pod} · ${l.container}` : l.container;
  if (c.kind === 'pod' && l.pod) return `${l.namespace ?? 'default'}/${l.pod}`;
  return c.key;
}

function parentPath(key: string): string {
  const i = key.lastIndexOf('/');
  return i <= 0 ? '/' : key.slice(0, i);
}

/** The nearest ancestor the list knows (a cgroup whose parent is not tracked hangs under its grandparent…). */
export function effectiveParent(c: Pick<StatsContainer, 'key' | 'parent'>, known: ReadonlySet<string>): string | undefined {
  if (c.key === '/') return undefined;
  let p = c.parent ?? parentPath(c.key);
  while (p !== '/' && !known.has(p)) p = parentPath(p);
  return p;
}

/** Direct children of a key in the tracked tree. */
export function childrenOf(list: readonly StatsContainer[] | undefined, key: string): StatsContainer[] {
  const known = new Set((list ?? []).map((c) => c.key));
  return (list ?? []).filter((c) => c.key !== key && effectiveParent(c, known) === key);
}

/** Ancestors of a key that the list knows, root first (for breadcrumbs). */
export function ancestorsOf(list: readonly StatsContainer[] | undefined, key: string): StatsContainer[] {
  const byKey = new Map((list ?? []).map((c) => [c.key, c]));
  const known = new Set(byKey.keys());
  const out: StatsContainer[] = [];
  const self = byKey.get(key);
  let cur = self ? effectiveParent(self, known) : undefined;
  const seen = new Set<string>();
  while (cur !== undefined && !seen.has(cur)) {
    seen.add(cur);
    const c = byKey.get(cur);
    if (c) out.unshift(c);
    cur = c ? effectiveParent(c, known) : undefined;
  }
  return out;
}

export interface SubcontainerRow {
  container: StatsContainer;
  name: string;
  href: string;
  cpuCores?: number;
  workingSetBytes?: number;
}

export type RankBy = 'cpu' | 'memory';

/** Children with their newest CPU rate and working set, ranked (unknown figures last, then by name). */
export function rankSubcontainers(children: readonly StatsContainer[], samples: ReadonlyMap<string, ContainerSample[]>, by: RankBy): SubcontainerRow[] {
  const rows = children.map((c): SubcontainerRow => {
    const s = samples.get(c.key) ?? [];
    const rates = counterRate(s, (x) => x.cpu?.usageNanoseconds, NS_PER_CORE_SECOND);
    return {
      container: c,
      name: displayName(c),
      href: hrefFor(c),
      cpuCores: rates[rates.length - 1]?.v,
      workingSetBytes: s[s.length - 1]?.memory?.workingSetBytes,
    };
  });
  const val = (r: SubcontainerRow) => (by === 'cpu' ? r.cpuCores : r.workingSetBytes);
  return rows.sort((a, b) => {
    const va = val(a);
    const vb = val(b);
    if (va === undefined && vb === undefined) return a.name.localeCompare(b.name);
    if (va === undefined) return 1;
    if (vb === undefined) return -1;
    return vb - va || a.name.localeCompare(b.name);
  });
}
