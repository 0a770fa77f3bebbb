/**
 * An opt-in policy shaped like the Node authorizer + NodeRestriction admission for `system:node:<name>` users:
 * read pods/nodes/services/endpoints/runtimeclasses cluster-wide (RBAC's system:node role), write only its own Node (and nodes/status) and its own
 * Lease in kube-node-lease, update status / delete only pods bound to it, create mirror pods only for itself
 * (the pod is not inspected here), get secrets / configmaps / serviceaccount tokens only when a pod bound to
 * the node references them (simplified: any pod on the node in that namespace), create events and reviews.
 * Others: system:masters allowed, everyone else denied. Pass as `authorize` to startApiServerDouble.
 */
import type { AuthorizePolicy, AuthzAttributes } from './authn.ts';
import type { DoubleStore } from '../store/double-store.ts';

const READ = new Set(['get', 'list', 'watch']);

function nodeAllows(store: DoubleStore, node: string, a: AuthzAttributes): boolean {
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const podOnNode = () => a.name !== undefined && store.get('pods', a.namespace, a.name)?.spec?.nodeName === node;
  const nsHasPodOnNode = () => store.list('pods', { namespace: a.namespace, fieldSelector: `spec.nodeName=${node}` }).length > 0;
  switch (res) {
    case 'pods':
      return READ.has(a.verb) || a.verb === 'create' || (a.verb === 'delete' && podOnNode());
    case 'pods/status':
      return ['get', 'update', 'patch'].includes(a.verb) && podOnNode();
    case 'pods/eviction':
      return a.verb === 'create' && podOnNode();
    case 'nodes':
      return READ.has(a.verb) || (['create', 'update', 'patch', 'delete'].includes(a.verb) && (a.name === node || a.verb === 'create'));
    case 'nodes/status':
      return a.name === node;
    case 'leases':
      return a.group === 'coordination.k8s.io' && a.namespace === 'kube-node-lease' && (a.verb === 'create' || a.name === node);
    case 'events':
      return ['create', 'update', 'patch'].includes(a.verb);
    case 'secrets':
    case 'configmaps':
    case 'persistentvolumeclaims':
      return a.verb === 'get' && nsHasPodOnNode();
    case 'serviceaccounts/token':
      return a.verb === 'create' && nsHasPodOnNode();
    case 'services':
    case 'endpoints':
    case 'namespaces':
    case 'runtimeclasses':
      return READ.has(a.verb);
    case 'tokenreviews':
    case 'subjectaccessreviews':
      return a.verb === 'create';
    default:
      return false;
  }
}

export function nodeRestrictionPolicy(store: () => DoubleStore): AuthorizePolicy {
  return (a) => {
    if (a.groups.includes('system:masters')) return { allowed: true };
    const m = /^system:node:(.+)$/.exec(a.user);
    if (!m || !a.groups.includes('system:nodes') || !a.resource) return { allowed: false };
    if (nodeAllows(store(), m[1]!, a)) return { allowed: true };
    return { allowed: false, reason: `node '${m[1]}' cannot ${a.verb} ${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.name ?? ''}`.trim() };
  };
}
