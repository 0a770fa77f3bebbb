/**
 * List semantics: resourceVersion / resourceVersionMatch (Exact from the event window, 410 Expired when it
 * has been compacted), label and field selectors (400 on unsupported field labels), and limit/continue
 * paging over a consistent snapshot (410 when the continue token's snapshot has left the window).
 */
import { apiVersionOf, fieldValue, resourceKey, type KubeObject, type ResourceInfo } from '../resources.ts';
import { errors } from '../status.ts';
import { matches, parseFieldSelector, parseLabelSelector } from './selectors.ts';
import { objectKey, type RawStore } from './store.ts';

export interface ListQuery {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
}

export interface ListBody {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: KubeObject[];
}

export type ObjectFilter = (obj: KubeObject) => boolean;

/** Compile label + field selectors into a predicate; throws 400 ApiError on bad syntax or fields. */
export function compileFilter(r: ResourceInfo, labelSelector?: string, fieldSelector?: string): ObjectFilter {
  const labels = parseLabelSelector(labelSelector);
  if (!labels.ok) throw errors.badRequest(`unable to parse requirement: ${labels.reason}`);
  const fields = parseFieldSelector(fieldSelector);
  if (!fields.ok) throw errors.badRequest(fields.reason);
  for (const req of fields.reqs) {
    const known = req.key === 'metadata.name' || (req.key === 'metadata.namespace' && r.namespaced) || r.fields.includes(req.key);
    if (!known) throw errors.badRequest(`field label not supported: ${req.key}`);
  }
  return (obj) =>
    matches(labels.reqs, (k) => (obj.metadata.labels as Record<string, string> | undefined)?.[k]) &&
    matches(fields.reqs, (k) => fieldValue(r, obj, k));
}

export function parseRv(s: string, what = 'resourceVersion'): number {
  const n = Number(s);
  if (!/^\d+$/.test(s) || !Number.isSafeInteger(n)) throw errors.badRequest(`invalid ${what}: ${s}`);
  return n;
}

interface ContinueToken {
  v: 'meta.k8s.io/v1';
  rv: number;
  start: string;
}

function decodeContinue(token: string): ContinueToken {
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinueToken;
    if (t.v === 'meta.k8s.io/v1' && typeof t.rv === 'number' && typeof t.start === 'string') return t;
  } catch {
    // fall through
  }
  throw errors.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
}

const CONTINUE_TOO_OLD =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

function snapshot(raw: RawStore, r: ResourceInfo, q: ListQuery): { items: KubeObject[]; rv: number; after?: string } {
  const key = resourceKey(r);
  const ns = r.namespaced ? q.namespace : undefined;
  const current = raw.currentRv();
  if (q.continue) {
    const t = decodeContinue(q.continue);
    const items = raw.listAt(key, t.rv, ns);
    if (!items) throw errors.expired(CONTINUE_TOO_OLD);
    return { items, rv: t.rv, after: t.start };
  }
  const rvText = q.resourceVersion ?? '';
  if (q.resourceVersionMatch && !rvText)
    throw errors.badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (q.resourceVersionMatch === 'Exact') {
    const rv = parseRv(rvText);
    if (rv > current) throw errors.timeout(`Too large resource version: ${rv}, current: ${current}`);
    const items = raw.listAt(key, rv, ns);
    if (!items) throw errors.expired(`too old resource version: ${rv} (${raw.compacted()})`);
    return { items, rv };
  }
  if (rvText && rvText !== '0') {
    const rv = parseRv(rvText);
    if (rv > current) throw errors.timeout(`Too large resource version: ${rv}, current: ${current}`);
  }
  return { items: raw.list(key, ns), rv: current };
}

export function listObjects(raw: RawStore, r: ResourceInfo, q: ListQuery): ListBody {
  const filter = compileFilter(r, q.labelSelector, q.fieldSelector);
  const snap = snapshot(raw, r, q);
  const keyOf = (o: KubeObject) => objectKey(r.namespaced ? o.metadata.namespace : undefined, o.metadata.name);
  let items = snap.items.filter(filter);
  if (snap.after !== undefined) items = items.filter((o) => keyOf(o) > snap.after!);
  const body: ListBody = {
    kind: `${r.kind}List`,
    apiVersion: apiVersionOf(r),
    metadata: { resourceVersion: String(snap.rv) },
    items: [],
  };
  if (q.limit && q.limit > 0 && items.length > q.limit) {
    const rest = items.length - q.limit;
    items = items.slice(0, q.limit);
    const token: ContinueToken = { v: 'meta.k8s.io/v1', rv: snap.rv, start: keyOf(items[items.length - 1]!) };
    body.metadata.continue = Buffer.from(JSON.stringify(token)).toString('base64url');
    body.metadata.remainingItemCount = rest;
  }
  body.items = items.map((o) => {
    const { kind: _k, apiVersion: _a, ...rest } = o;
    return rest as KubeObject;
  });
  return body;
}
