/** Discovery documents (/api, /api/v1, /apis, /apis/<g>, /apis/<g>/<v>, /version) built from RESOURCES. */
import { apiVersionOf, RESOURCES, type ResourceInfo } from '../resources.ts';

export const DOUBLE_VERSION = {
  major: '1',
  minor: '34',
  gitVersion: 'v1.34.0-nodelet-apiserver-double',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'n/a (TypeScript double)',
  compiler: 'n/a',
  platform: 'linux/amd64',
};

function groups(): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const r of RESOURCES) {
    if (!r.group) continue;
    const vs = m.get(r.group) ?? [];
    if (!vs.includes(r.version)) vs.push(r.version);
    m.set(r.group, vs);
  }
  return m;
}

function apiGroup(name: string, versions: string[]) {
  const vs = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: vs, preferredVersion: vs[0] };
}

function resourceEntries(r: ResourceInfo) {
  const main = {
    name: r.resource,
    singularName: r.singular,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: r.verbs,
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
  };
  const subs = r.subresources.map((s) => ({
    name: `${r.resource}/${s}`,
    singularName: '',
    namespaced: r.namespaced,
    kind: s === 'token' ? 'TokenRequest' : s === 'binding' ? 'Binding' : r.kind,
    verbs: ['status', 'ephemeralcontainers', 'approval'].includes(s) ? ['get', 'patch', 'update'] : s === 'log' ? ['get'] : ['create', 'get'],
    ...(s === 'token' ? { group: 'authentication.k8s.io', version: 'v1' } : {}),
  }));
  return [main, ...subs];
}

/** The discovery body for a non-resource path, or undefined when the path is not a discovery path. */
export function discoveryDocument(path: string, serverAddress: string): unknown {
  const p = path.replace(/\/+$/, '') || '/';
  if (p === '/version') return DOUBLE_VERSION;
  if (p === '/api')
    return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
  if (p === '/apis')
    return { kind: 'APIGroupList', apiVersion: 'v1', groups: [...groups()].map(([g, vs]) => apiGroup(g, vs)) };
  const m = /^\/(?:api\/(v1)|apis\/([^/]+)(?:\/([^/]+))?)$/.exec(p);
  if (!m) return undefined;
  const group = m[2] ?? '';
  const version = m[1] ?? m[3];
  if (group && !version) {
    const vs = groups().get(group);
    return vs ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, vs) } : undefined;
  }
  const rs = RESOURCES.filter((r) => r.group === group && r.version === version);
  if (rs.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf({ group, version: version! }),
    resources: rs.flatMap(resourceEntries),
  };
}
