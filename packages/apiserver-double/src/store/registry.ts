/**
 * The generic registry of the double: create / update / patch / delete with the real apiserver's object
 * metadata semantics (uid, creationTimestamp, generation, resourceVersion preconditions, no-op updates,
 * status subresources, graceful pod deletion, finalizers) over the RawStore.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '@nodelet/core/util';
import { applyJsonPatch } from '../patch/json-patch.ts';
import { mergePatch } from '../patch/merge-patch.ts';
import { strategicMerge } from '../patch/strategic-merge.ts';
import { apiVersionOf, findResource, RESOURCES, resourceKey, type KubeObject, type ResourceInfo } from '../resources.ts';
import { ApiError, errors, MODIFIED_MESSAGE } from '../status.ts';
import { listObjects, type ListBody, type ListQuery } from './list.ts';
import { admitServiceAccount } from './sa-admission.ts';
import { defaultPod, podGracePeriod, qosClass, validatePodSpecUpdate, type FieldError } from './pod-rules.ts';
import { decodePod, validatePod } from './pod-validation.ts';
import { admitRuntimeClass, validateRuntimeClass, validateRuntimeClassUpdate } from './runtimeclass-rules.ts';
import { defaultSecret, validateSecret, validateSecretUpdate } from './secret-rules.ts';
import { validateEphemeralContainersUpdate, validateNoEphemeralContainersOnCreate, withEphemeralContainers } from './ephemeral-containers.ts';
import { clone, objectKey, RawStore } from './store.ts';
import { prepareCsrCreate, prepareCsrUpdate, validateCsr, validateCsrUpdate, type CsrUser } from './csr-rules.ts';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export type Subresource = 'status' | 'ephemeralcontainers' | 'approval' | undefined;

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const GENERATE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

/** metav1.Time: RFC 3339 with second precision. */
export function kubeTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const isPod = (r: ResourceInfo) => r.kind === 'Pod' && !r.group;
const isRuntimeClass = (r: ResourceInfo) => r.kind === 'RuntimeClass';
const isSecret = (r: ResourceInfo) => r.kind === 'Secret' && !r.group;
const isCsr = (r: ResourceInfo) => r.kind === 'CertificateSigningRequest';
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function withoutRv(o: KubeObject): KubeObject {
  const c = clone(o);
  delete c.metadata.resourceVersion;
  return c;
}

/** The storage-layer precondition failure, worded as etcd3 store errors reach clients (409 Conflict). */
function uidConflict(r: ResourceInfo, old: KubeObject, wantUid: string) {
  const ns = old.metadata.namespace ? `${old.metadata.namespace}/` : '';
  const key = `/registry/${r.resource}/${ns}${old.metadata.name}`;
  return errors.conflict(r.resource, r.group, old.metadata.name, `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${wantUid}, UID in object meta: ${old.metadata.uid}`);
}

export class Registry {
  readonly raw: RawStore;

  constructor(private readonly clock: Clock, raw?: RawStore) {
    this.raw = raw ?? new RawStore();
  }

  resource(group: string, resource: string, version = 'v1'): ResourceInfo {
    const r = findResource(group, version, resource);
    if (!r) throw new Error(`double: unknown resource ${resource} in group "${group}"`);
    return r;
  }

  get(r: ResourceInfo, ns: string | undefined, name: string): KubeObject {
    const o = this.raw.get(resourceKey(r), objectKey(r.namespaced ? ns : undefined, name));
    if (!o) throw errors.notFound(r.resource, r.group, name);
    return o;
  }

  tryGet(r: ResourceInfo, ns: string | undefined, name: string): KubeObject | undefined {
    return this.raw.get(resourceKey(r), objectKey(r.namespaced ? ns : undefined, name));
  }

  list(r: ResourceInfo, q: ListQuery = {}): ListBody {
    return listObjects(this.raw, r, q);
  }

  /**
   * POST. `validate: false` stores a pod an API server should refuse (tests of the kubelet's own checks);
   * `requester` is the authenticated user (a CSR records it in its spec).
   */
  create(r: ResourceInfo, ns: string | undefined, body: KubeObject, validate = true, requester?: CsrUser): KubeObject {
    const obj = clone(body);
    if (isPod(r)) decodePod(obj);
    obj.metadata ??= {};
    const md = obj.metadata;
    if (r.namespaced) {
      if (md.namespace && ns && md.namespace !== ns)
        throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      md.namespace = ns ?? md.namespace ?? 'default';
      this.requireNamespace(md.namespace);
    } else delete md.namespace;
    if (!md.name && md.generateName) md.name = md.generateName + this.randomSuffix();
    if (!isPod(r)) this.validateMeta(r, obj); // a pod's metadata is validated with the rest of it
    obj.kind = r.kind;
    obj.apiVersion = apiVersionOf(r);
    md.uid = randomUUID();
    md.creationTimestamp = kubeTime(this.clock.now());
    delete md.resourceVersion;
    delete md.deletionTimestamp;
    delete md.deletionGracePeriodSeconds;
    if (r.generation) md.generation = 1;
    else delete md.generation;
    this.prepareForCreate(r, obj, validate, requester);
    // Storage answers AlreadyExists after admission and validation, as the real one.
    if (this.tryGet(r, md.namespace, md.name)) throw errors.alreadyExists(r.resource, r.group, md.name);
    return this.raw.put(resourceKey(r), objectKey(md.namespace, md.name), obj);
  }

  /** PUT: full replacement with an optional resourceVersion precondition. */
  update(r: ResourceInfo, ns: string | undefined, name: string, body: KubeObject, sub?: Subresource): KubeObject {
    const old = this.tryGet(r, ns, name);
    if (!old) {
      if (r.createOnUpdate && !sub) return this.create(r, ns, { ...body, metadata: { ...body.metadata, name } });
      throw errors.notFound(r.resource, r.group, name);
    }
    if (body.metadata?.name && body.metadata.name !== name)
      throw errors.badRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${name})`);
    const want = body.metadata?.resourceVersion;
    if (want && want !== old.metadata.resourceVersion) throw errors.conflict(r.resource, r.group, name, MODIFIED_MESSAGE);
    if (body.metadata?.uid && body.metadata.uid !== old.metadata.uid) throw uidConflict(r, old, body.metadata.uid);
    return this.commitUpdate(r, old, body, sub);
  }

  patch(r: ResourceInfo, ns: string | undefined, name: string, contentType: string, patch: unknown, sub?: Subresource): KubeObject {
    const old = this.get(r, ns, name);
    let next: unknown;
    const type = contentType.split(';')[0]!.trim();
    if (type === 'application/merge-patch+json') next = mergePatch(old, patch);
    else if (type === 'application/strategic-merge-patch+json') next = strategicMerge(old, patch);
    else if (type === 'application/json-patch+json') {
      const res = applyJsonPatch(old, patch);
      if (!res.ok) throw new ApiError({ ...errors.badRequest(res.reason).status, code: 422, reason: 'Invalid' });
      next = res.value;
    } else throw errors.unsupportedMediaType(contentType);
    const obj = next as KubeObject;
    if (typeof obj !== 'object' || obj === null || typeof obj.metadata !== 'object')
      throw errors.badRequest('the patch produced an object without metadata');
    const want = obj.metadata.resourceVersion;
    if (want && want !== old.metadata.resourceVersion) throw errors.conflict(r.resource, r.group, name, MODIFIED_MESSAGE);
    if (obj.metadata.uid && obj.metadata.uid !== old.metadata.uid) throw uidConflict(r, old, obj.metadata.uid);
    return this.commitUpdate(r, old, obj, sub);
  }

  delete(r: ResourceInfo, ns: string | undefined, name: string, opts: DeleteOptions = {}): KubeObject {
    const old = this.get(r, ns, name);
    const pre = opts.preconditions ?? {};
    if (pre.uid && pre.uid !== old.metadata.uid) throw uidConflict(r, old, pre.uid);
    if (pre.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion)
      throw errors.conflict(r.resource, r.group, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`);
    const key = objectKey(old.metadata.namespace, name);
    const grace = r.kind === 'Pod' && !r.group ? podGracePeriod(old, opts.gracePeriodSeconds) : 0;
    const md = old.metadata;
    if (grace > 0) {
      if (md.deletionTimestamp !== undefined && (md.deletionGracePeriodSeconds ?? 0) <= grace) return old;
      md.deletionTimestamp = kubeTime(this.clock.now() + grace * 1000);
      md.deletionGracePeriodSeconds = grace;
      return this.raw.put(resourceKey(r), key, old);
    }
    if ((md.finalizers ?? []).length > 0) {
      if (md.deletionTimestamp !== undefined && md.deletionGracePeriodSeconds === 0) return old;
      md.deletionTimestamp ??= kubeTime(this.clock.now());
      md.deletionGracePeriodSeconds = 0;
      return this.raw.put(resourceKey(r), key, old);
    }
    if (r.kind === 'Namespace') this.removeNamespaceContents(name);
    return this.raw.remove(resourceKey(r), key)!;
  }

  private commitUpdate(r: ResourceInfo, old: KubeObject, body: KubeObject, sub: Subresource): KubeObject {
    let next: KubeObject;
    if (sub === 'status' || sub === 'approval') next = { ...clone(old), status: clone(body.status) };
    else if (sub === 'ephemeralcontainers') next = withEphemeralContainers(old, body);
    else {
      next = clone(body);
      if (r.hasStatus) next.status = clone(old.status);
      const md = (next.metadata ??= {});
      for (const k of ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'namespace', 'name'])
        if (old.metadata[k] === undefined) delete md[k];
        else md[k] = old.metadata[k];
    }
    next.kind = r.kind;
    next.apiVersion = apiVersionOf(r);
    next.metadata.resourceVersion = old.metadata.resourceVersion;
    if (isPod(r) && sub !== 'status') {
      decodePod(next);
      const rules = sub === 'ephemeralcontainers' ? validateEphemeralContainersUpdate(old, next) : validatePodSpecUpdate(old, next);
      this.invalidIf(r, old, [...validatePod(next), ...rules]);
    }
    if (isSecret(r)) {
      defaultSecret(next);
      this.invalidIf(r, old, [...validateSecret(next), ...validateSecretUpdate(old, next)]);
    }
    if (isRuntimeClass(r)) this.invalidIf(r, old, [...validateRuntimeClass(next), ...validateRuntimeClassUpdate(old, next)]);
    if (isCsr(r)) {
      const csrSub = sub === 'status' || sub === 'approval' ? sub : undefined;
      prepareCsrUpdate(next, old, csrSub, kubeTime(this.clock.now()));
      this.invalidIf(r, old, validateCsrUpdate(next, old, csrSub));
    }
    if (r.generation && !same(old.spec, next.spec)) next.metadata.generation = (old.metadata.generation ?? 0) + 1;
    const key = objectKey(old.metadata.namespace, old.metadata.name);
    if (next.metadata.deletionTimestamp !== undefined && next.metadata.deletionGracePeriodSeconds === 0 && !(next.metadata.finalizers ?? []).length) {
      return this.raw.remove(resourceKey(r), key, next)!;
    }
    if (same(withoutRv(old), withoutRv(next))) return old;
    return this.raw.put(resourceKey(r), key, next);
  }

  private prepareForCreate(r: ResourceInfo, obj: KubeObject, validate: boolean, requester?: CsrUser): void {
    if (isPod(r)) {
      defaultPod(obj);
      admitServiceAccount(obj, (ns, name) => this.tryGet(this.resource('', 'serviceaccounts'), ns, name), () => this.randomSuffix());
      admitRuntimeClass(obj, (name) => this.tryGet(this.resource('node.k8s.io', 'runtimeclasses'), undefined, name));
      if (validate) this.invalidIf(r, obj, [...validatePod(obj), ...validateNoEphemeralContainersOnCreate(obj)]);
      obj.status = { phase: 'Pending', qosClass: qosClass(obj) };
    } else if (isSecret(r)) {
      defaultSecret(obj);
      this.invalidIf(r, obj, validateSecret(obj));
    } else if (isRuntimeClass(r)) {
      this.invalidIf(r, obj, validateRuntimeClass(obj));
    } else if (isCsr(r)) {
      prepareCsrCreate(obj, requester);
      this.invalidIf(r, obj, validateCsr(obj));
    } else if (r.kind === 'Namespace') {
      obj.metadata.labels = { ...obj.metadata.labels, 'kubernetes.io/metadata.name': obj.metadata.name };
      obj.spec = { finalizers: ['kubernetes'], ...obj.spec };
      obj.status = { phase: 'Active' };
    }
  }

  private validateMeta(r: ResourceInfo, obj: KubeObject): void {
    const name = obj.metadata.name;
    if (!name)
      this.invalidIf(r, obj, [{ field: 'metadata.name', type: 'FieldValueRequired', message: 'Required value: name or generateName is required' }]);
    else if (!DNS1123_SUBDOMAIN.test(name) && r.kind !== 'Event' && !isCsr(r))
      this.invalidIf(r, obj, [{ field: 'metadata.name', type: 'FieldValueInvalid', message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')` }]);
  }

  private invalidIf(r: ResourceInfo, obj: KubeObject, errs: FieldError[]): void {
    if (errs.length) throw errors.invalid(r.kind, r.group, String(obj.metadata?.name ?? ''), errs);
  }

  private requireNamespace(ns: string): void {
    const nsr = this.resource('', 'namespaces');
    if (!this.tryGet(nsr, undefined, ns)) throw errors.notFound('namespaces', '', ns);
  }

  private removeNamespaceContents(ns: string): void {
    for (const r of RESOURCES.filter((x) => x.namespaced && x.stored))
      for (const o of this.raw.list(resourceKey(r), ns)) this.raw.remove(resourceKey(r), objectKey(ns, o.metadata.name));
  }

  private randomSuffix(): string {
    let s = '';
    for (let i = 0; i < 5; i++) s += GENERATE_CHARS[Math.floor(Math.random() * GENERATE_CHARS.length)];
    return s;
  }
}
