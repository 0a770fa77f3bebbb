/**
 * Label and field selectors with the syntax of k8s.io/apimachinery: labels support `k=v`, `k==v`, `k!=v`,
 * `k in (a,b)`, `k notin (a,b)`, `k`, `!k`; fields support `k=v`, `k==v`, `k!=v`. Terms are ANDed.
 */
export type Requirement =
  | { op: 'eq' | 'neq'; key: string; value: string }
  | { op: 'in' | 'notin'; key: string; values: string[] }
  | { op: 'exists' | 'notexists'; key: string };

export type ParseResult = { ok: true; reqs: Requirement[] } | { ok: false; reason: string };

/** Split on commas that are not inside parentheses. */
function splitTerms(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((t) => t.trim()).filter((t) => t.length > 0);
}

export function parseLabelSelector(s: string | undefined): ParseResult {
  const reqs: Requirement[] = [];
  for (const term of splitTerms(s ?? '')) {
    const setMatch = /^([^\s!=()]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    if (setMatch) {
      const values = setMatch[3]!.split(',').map((v) => v.trim()).filter((v) => v !== '');
      reqs.push({ op: setMatch[2] as 'in' | 'notin', key: setMatch[1]!, values });
      continue;
    }
    const eq = /^([^\s!=()]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/.exec(term);
    if (eq) {
      reqs.push({ op: eq[2] === '!=' ? 'neq' : 'eq', key: eq[1]!, value: eq[3]! });
      continue;
    }
    const ex = /^(!?)([^\s!=()]+)$/.exec(term);
    if (ex) {
      reqs.push({ op: ex[1] ? 'notexists' : 'exists', key: ex[2]! });
      continue;
    }
    return { ok: false, reason: `unable to parse requirement: ${term}` };
  }
  return { ok: true, reqs };
}

export function parseFieldSelector(s: string | undefined): ParseResult {
  const reqs: Requirement[] = [];
  for (const term of splitTerms(s ?? '')) {
    const m = /^([^=!]+)(==|=|!=)(.*)$/.exec(term);
    if (!m) return { ok: false, reason: `invalid selector: '${s}'; can't understand '${term}'` };
    reqs.push({ op: m[2] === '!=' ? 'neq' : 'eq', key: m[1]!.trim(), value: m[3]!.trim() });
  }
  return { ok: true, reqs };
}

/** Does a value lookup satisfy every requirement? `get` returns undefined for an absent key. */
export function matches(reqs: Requirement[], get: (key: string) => string | undefined): boolean {
  return reqs.every((r) => {
    const v = get(r.key);
    switch (r.op) {
      case 'eq':
        return v === r.value;
      case 'neq':
        return v !== r.value;
      case 'in':
        return v !== undefined && r.values.includes(v);
      case 'notin':
        return v === undefined || !r.values.includes(v);
      case 'exists':
        return v !== undefined;
      case 'notexists':
        return v === undefined;
    }
  });
}
