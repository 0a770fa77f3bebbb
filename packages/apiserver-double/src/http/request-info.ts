/**
 * Parse a request path the way the apiserver's RequestInfoFactory does: /api/v1/... and /apis/<g>/<v>/...,
 * namespaced or cluster paths, subresources, the legacy /watch/ prefix, and the verb (get vs list, watch,
 * deletecollection). `/api/v1/namespaces/<ns>` and `/api/v1/namespaces/<ns>/status` are the namespace itself.
 */
export interface ResourceRequest {
  kind: 'resource';
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  verb: string;
}

export type RequestInfo = ResourceRequest | { kind: 'nonresource'; path: string; verb: string };

const VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete', GET: 'get', HEAD: 'get' };

export function parseRequestInfo(method: string, url: URL): RequestInfo {
  const parts = url.pathname.split('/').filter((p) => p !== '').map(decodeURIComponent);
  const nonResource = { kind: 'nonresource' as const, path: url.pathname, verb: method.toLowerCase() };
  let rest: string[];
  let group = '';
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else return nonResource;
  let watchPrefix = false;
  if (rest[0] === 'watch') {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  let [resource, name, subresource] = rest;
  if (!resource) return nonResource;
  if (namespace !== undefined && (resource === 'status' || resource === 'finalize') && name === undefined) {
    // `/api/v1/namespaces/<ns>/status` is the Namespace's own subresource
    [resource, name, subresource, namespace] = ['namespaces', namespace, resource, undefined];
  }
  let verb = VERBS[method] ?? method.toLowerCase();
  const watchParam = url.searchParams.get('watch');
  const watch = watchPrefix || watchParam === '1' || watchParam === 'true';
  if (verb === 'get' && !name) verb = watch ? 'watch' : 'list';
  else if (verb === 'get' && watch) verb = 'watch';
  if (verb === 'delete' && !name) verb = 'deletecollection';
  return { kind: 'resource', group, version, namespace, resource, name, subresource, verb };
}
