/** nodeSelector and requiredDuringSchedulingIgnoredDuringExecution node affinity against node labels. */
import type { V1NodeSelectorRequirement, V1Pod } from '@kubernetes/client-node';

export type AffinityResult = { ok: true; matches: boolean } | { ok: false; reason: string };

function requirementMatches(r: V1NodeSelectorRequirement, labels: Record<string, string>): boolean | string {
  const has = Object.hasOwn(labels, r.key);
  const v = labels[r.key];
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(v as string);
    case 'NotIn':
      return !has || !values.includes(v as string);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      const want = Number(values[0]);
      const got = Number(v);
      if (values.length !== 1 || !Number.isInteger(want)) return `invalid ${r.operator} value for ${r.key}`;
      if (!has || !Number.isInteger(got)) return false;
      return r.operator === 'Gt' ? got > want : got < want;
    }
    default:
      return `unknown operator ${r.operator}`;
  }
}

export function podMatchesNodeAffinity(pod: V1Pod, labels: Record<string, string>, nodeName = ''): AffinityResult {
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) {
    if (labels[k] !== v) return { ok: true, matches: false };
  }
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!terms) return { ok: true, matches: true };
  // Terms are ORed; requirements within a term are ANDed; an empty term matches nothing.
  for (const term of terms) {
    const reqs = term.matchExpressions ?? [];
    if (reqs.length === 0 && (term.matchFields ?? []).length === 0) continue;
    let all = true;
    for (const r of reqs) {
      const m = requirementMatches(r, labels);
      if (typeof m === 'string') return { ok: false, reason: m };
      if (!m) {
        all = false;
        break;
      }
    }
    for (const f of term.matchFields ?? []) {
      const m = requirementMatches(f, { 'metadata.name': nodeName });
      if (typeof m === 'string') return { ok: false, reason: m };
      if (!m) all = false;
    }
    if (all) return { ok: true, matches: true };
  }
  return { ok: true, matches: false };
}
