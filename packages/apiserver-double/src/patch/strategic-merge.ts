/**
 * Strategic merge patch (application/strategic-merge-patch+json) for the types this double serves. The merge
 * keys below are the `patchStrategy:"merge" patchMergeKey:"..."` tags of k8s.io/api; lists without a tag are
 * atomic (replaced whole) — notably pod status.containerStatuses, which the real API marks `listType=atomic`.
 * Directives: `$patch: replace|delete` (maps and list items), `$retainKeys`, `$setElementOrder/<field>`,
 * `$deleteFromPrimitiveList/<field>`.
 */
import { isPlainObject } from './merge-patch.ts';

const CONTAINER_LISTS = ['spec.containers', 'spec.initContainers', 'spec.ephemeralContainers'];

/** Field path (list items as `[]`) → merge key. */
export const MERGE_KEYS: Record<string, string> = {
  'metadata.ownerReferences': 'uid',
  'spec.volumes': 'name',
  'spec.imagePullSecrets': 'name',
  'spec.hostAliases': 'ip',
  'spec.resourceClaims': 'name',
  'status.conditions': 'type',
  'status.podIPs': 'ip',
  'status.hostIPs': 'ip',
  'status.addresses': 'type',
  'status.resourceClaimStatuses': 'name',
  'secrets': 'name',
  'imagePullSecrets': 'name',
  ...Object.fromEntries(
    CONTAINER_LISTS.flatMap((l) => [
      [l, 'name'],
      [`${l}[].env`, 'name'],
      [`${l}[].ports`, 'containerPort'],
      [`${l}[].volumeMounts`, 'mountPath'],
      [`${l}[].volumeDevices`, 'devicePath'],
    ]),
  ),
};

/** Lists of scalars with patchStrategy merge (set union). */
export const PRIMITIVE_MERGE = new Set(['metadata.finalizers', 'spec.podCIDRs']);

const SET_ORDER = '$setElementOrder/';
const DELETE_PRIMITIVE = '$deleteFromPrimitiveList/';

const child = (path: string, k: string) => (path ? `${path}.${k}` : k);

export function strategicMerge(original: unknown, patch: unknown, path = ''): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  if (patch.$patch === 'replace') return stripDirectives(patch);
  if (patch.$patch === 'delete') return undefined;
  const out: Record<string, unknown> = isPlainObject(original) ? structuredClone(original) : {};
  const orders: [string, unknown[]][] = [];
  const deletes: [string, unknown[]][] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys') continue;
    if (k.startsWith(SET_ORDER)) orders.push([k.slice(SET_ORDER.length), Array.isArray(v) ? v : []]);
    else if (k.startsWith(DELETE_PRIMITIVE)) deletes.push([k.slice(DELETE_PRIMITIVE.length), Array.isArray(v) ? v : []]);
    else if (v === null) delete out[k];
    else if (Array.isArray(v)) out[k] = mergeListField(out[k], v, child(path, k));
    else if (isPlainObject(v)) {
      const merged = strategicMerge(out[k], v, child(path, k));
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    } else out[k] = v;
  }
  for (const [field, values] of deletes) {
    const cur = out[field];
    if (Array.isArray(cur)) out[field] = cur.filter((x) => !values.some((d) => d === x));
  }
  for (const [field, order] of orders) {
    const cur = out[field];
    if (Array.isArray(cur)) out[field] = reorder(cur, order, MERGE_KEYS[child(path, field)]);
  }
  if (Array.isArray(patch.$retainKeys)) {
    const keep = new Set(patch.$retainKeys as string[]);
    for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
  }
  return out;
}

function mergeListField(original: unknown, patch: unknown[], path: string): unknown[] {
  const key = MERGE_KEYS[path];
  const orig = Array.isArray(original) ? structuredClone(original) : [];
  if (PRIMITIVE_MERGE.has(path)) return [...orig, ...patch.filter((p) => !orig.includes(p))];
  if (!key) return patch.map((p) => (isPlainObject(p) ? stripDirectives(p) : p));
  if (patch.some((p) => isPlainObject(p) && p.$patch === 'replace'))
    return patch.filter((p) => !(isPlainObject(p) && p.$patch === 'replace')).map((p) => stripDirectives(p));
  let out = orig as unknown[];
  for (const item of patch) {
    if (!isPlainObject(item)) continue;
    const id = item[key];
    const idx = out.findIndex((e) => isPlainObject(e) && e[key] === id);
    if (item.$patch === 'delete') out = out.filter((e) => !(isPlainObject(e) && e[key] === id));
    else if (idx >= 0) out[idx] = strategicMerge(out[idx], item, `${path}[]`);
    else out.push(strategicMerge({}, item, `${path}[]`));
  }
  return out;
}

/** Order `list` as `order` says (matching by merge key, or by value for scalars); unlisted items keep their place after. */
function reorder(list: unknown[], order: unknown[], key: string | undefined): unknown[] {
  const id = (x: unknown) => (key && isPlainObject(x) ? x[key] : x);
  const rank = new Map(order.map((o, i) => [id(o), i]));
  return [...list]
    .map((x, i) => ({ x, i, r: rank.get(id(x)) ?? order.length + i }))
    .sort((a, b) => a.r - b.r)
    .map((e) => e.x);
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$')) out[k] = stripDirectives(x);
  return out;
}
