/**
 * The resources this double serves, with the per-resource semantics the real registry strategies carry:
 * scope, status subresource, generation tracking, create-on-update, and the supported field selectors
 * (the real apiserver rejects any other field label with 400 "field label not supported").
 */
export type KubeObject = Record<string, any> & {
  kind?: string;
  apiVersion?: string;
  metadata: Record<string, any>;
};

export interface ResourceInfo {
  group: string;
  version: string;
  resource: string;
  kind: string;
  singular: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  /** Subresources served (discovery lists them as `<resource>/<sub>`). */
  subresources: string[];
  /** Has a status subresource: the main resource's PUT/PATCH ignore .status, /status ignores the rest. */
  hasStatus: boolean;
  /** metadata.generation set to 1 on create and bumped on spec changes. */
  generation: boolean;
  /** PUT of a missing object creates it (AllowCreateOnUpdate in the real strategy). */
  createOnUpdate: boolean;
  /** Field selector labels beyond metadata.name / metadata.namespace (dotted paths into the object). */
  fields: string[];
  /** false for create-only review resources (tokenreviews, subjectaccessreviews). */
  stored: boolean;
}

const RW = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function res(p: Partial<ResourceInfo> & Pick<ResourceInfo, 'resource' | 'kind' | 'singular'>): ResourceInfo {
  return {
    group: '',
    version: 'v1',
    namespaced: true,
    verbs: RW,
    subresources: [],
    hasStatus: false,
    generation: false,
    createOnUpdate: false,
    fields: [],
    stored: true,
    ...p,
  };
}

export const RESOURCES: ResourceInfo[] = [
  res({
    resource: 'pods',
    kind: 'Pod',
    singular: 'pod',
    shortNames: ['po'],
    subresources: ['status', 'log', 'exec', 'attach', 'portforward', 'binding', 'proxy', 'ephemeralcontainers'],
    hasStatus: true,
    generation: true,
    fields: [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ],
  }),
  res({
    resource: 'nodes',
    kind: 'Node',
    singular: 'node',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status', 'proxy'],
    hasStatus: true,
    fields: ['spec.unschedulable'],
  }),
  res({
    resource: 'namespaces',
    kind: 'Namespace',
    singular: 'namespace',
    namespaced: false,
    shortNames: ['ns'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: ['status', 'finalize'],
    hasStatus: true,
    fields: ['status.phase'],
  }),
  res({
    resource: 'events',
    kind: 'Event',
    singular: 'event',
    shortNames: ['ev'],
    createOnUpdate: true,
    fields: [
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ],
  }),
  res({ resource: 'secrets', kind: 'Secret', singular: 'secret', fields: ['type'] }),
  res({ resource: 'configmaps', kind: 'ConfigMap', singular: 'configmap', shortNames: ['cm'] }),
  res({ resource: 'services', kind: 'Service', singular: 'service', shortNames: ['svc'], subresources: ['status'], hasStatus: true }),
  res({
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    singular: 'serviceaccount',
    shortNames: ['sa'],
    subresources: ['token'],
  }),
  res({
    group: 'events.k8s.io',
    resource: 'events',
    kind: 'Event',
    singular: 'event',
    shortNames: ['ev'],
    createOnUpdate: true,
    fields: ['regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'reason', 'type'],
  }),
  res({ group: 'coordination.k8s.io', resource: 'leases', kind: 'Lease', singular: 'lease' }),
  res({ group: 'node.k8s.io', resource: 'runtimeclasses', kind: 'RuntimeClass', singular: 'runtimeclass', namespaced: false }),
  res({
    group: 'certificates.k8s.io',
    resource: 'certificatesigningrequests',
    kind: 'CertificateSigningRequest',
    singular: 'certificatesigningrequest',
    namespaced: false,
    shortNames: ['csr'],
    subresources: ['approval', 'status'],
    hasStatus: true,
    fields: ['spec.signerName'],
  }),
  res({
    group: 'authentication.k8s.io',
    resource: 'tokenreviews',
    kind: 'TokenReview',
    singular: 'tokenreview',
    namespaced: false,
    verbs: ['create'],
    stored: false,
  }),
  res({
    group: 'authorization.k8s.io',
    resource: 'subjectaccessreviews',
    kind: 'SubjectAccessReview',
    singular: 'subjectaccessreview',
    namespaced: false,
    verbs: ['create'],
    stored: false,
  }),
];

export function apiVersionOf(r: Pick<ResourceInfo, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

export function findResource(group: string, version: string, resource: string): ResourceInfo | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.resource === resource);
}

/** Storage key of a resource kind: `pods`, `leases.coordination.k8s.io`. */
export function resourceKey(r: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

/** The string value of a field-selector label on an object, as the real field-set functions compute it. */
export function fieldValue(r: ResourceInfo, obj: KubeObject, label: string): string | undefined {
  if (label === 'metadata.name') return String(obj.metadata.name ?? '');
  if (label === 'metadata.namespace') return r.namespaced ? String(obj.metadata.namespace ?? '') : undefined;
  if (!r.fields.includes(label)) return undefined;
  if (label === 'source' && r.kind === 'Event' && !r.group) return String(obj.source?.component ?? '');
  if (label === 'spec.hostNetwork') return String(Boolean(obj.spec?.hostNetwork));
  if (label === 'spec.unschedulable') return String(Boolean(obj.spec?.unschedulable));
  let cur: any = obj;
  for (const part of label.split('.')) cur = cur == null ? undefined : cur[part];
  return cur == null ? '' : String(cur);
}
