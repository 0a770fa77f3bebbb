/**
 * Parses and validates a cAdvisor REST request (/api/<version>/<resource>[/<container name>]) before anything is
 * looked up: an unknown version or resource, a bad count or recursive value, or a container name with `.`/`..`
 * segments, backslashes or control characters is a 4xx with a message, never a 500 and never a path outside the
 * container tree.
 */
export type CadvisorResource = 'machine' | 'containers' | 'spec' | 'stats' | 'ps';

export interface CadvisorRequest {
  version: 'v1.3' | 'v2.0';
  resource: CadvisorResource;
  /** Container name ('/' for the root). */
  name: string;
  recursive: boolean;
  count: number;
}

export type CadvisorParse = { ok: true; req: CadvisorRequest } | { ok: false; status: 400 | 404; reason: string };

const RESOURCES: Record<CadvisorRequest['version'], readonly CadvisorResource[]> = {
  'v1.3': ['machine', 'containers'],
  'v2.0': ['machine', 'spec', 'stats', 'ps'],
};
export const DEFAULT_COUNT = 64;
export const MAX_COUNT = 1000;

const isVersion = (v: string): v is CadvisorRequest['version'] => v === 'v1.3' || v === 'v2.0';

function containerName(rest: string[]): { ok: true; name: string } | { ok: false; reason: string } {
  let segs: string[];
  try {
    segs = rest.map((s) => decodeURIComponent(s));
  } catch {
    return { ok: false, reason: 'malformed percent-encoding in container name' };
  }
  segs = segs.filter((s) => s !== '');
  for (const s of segs) {
    if (s === '.' || s === '..') return { ok: false, reason: `container name may not contain "${s}" segments` };
    if (/[\\/\u0000-\u001f]/.test(s)) return { ok: false, reason: `invalid character in container name segment "${s.replace(/[\u0000-\u001f]/g, '?')}"` };
  }
  return { ok: true, name: `/${segs.join('/')}` };
}

function parseCount(raw: string | null): number | undefined {
  if (raw === null || raw === '') return DEFAULT_COUNT;
  if (!/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1 ? Math.min(MAX_COUNT, n) : undefined;
}

/** `rawPath` is the URL's pathname (still percent-encoded), starting with /api/. */
export function parseCadvisorRequest(rawPath: string, query: URLSearchParams): CadvisorParse {
  const [, api, version = '', resource = '', ...rest] = rawPath.split('/');
  if (api !== 'api') return { ok: false, status: 404, reason: `not a cAdvisor API path: ${rawPath}` };
  if (!isVersion(version)) return { ok: false, status: 404, reason: `unsupported API version "${version}" (supported: v1.3, v2.0)` };
  const known = RESOURCES[version];
  if (!(known as readonly string[]).includes(resource)) {
    return { ok: false, status: 404, reason: `unknown ${version} resource "${resource}" (supported: ${known.join(', ')})` };
  }
  const name = containerName(rest);
  if (!name.ok) return { ok: false, status: 400, reason: name.reason };
  if (resource === 'machine' && name.name !== '/') return { ok: false, status: 404, reason: `${version}/machine takes no container name` };
  const rec = query.get('recursive');
  if (rec !== null && rec !== 'true' && rec !== 'false') return { ok: false, status: 400, reason: `invalid recursive value "${rec}" (true or false)` };
  const count = parseCount(query.get('count'));
  if (count === undefined) return { ok: false, status: 400, reason: `invalid count "${query.get('count')}" (a positive integer)` };
  return { ok: true, req: { version, resource: resource as CadvisorResource, name: name.name, recursive: rec === 'true', count } };
}
