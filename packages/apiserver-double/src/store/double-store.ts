/**
 * Direct store access for tests (no HTTP, no auth): read, list, write and delete objects through the same
 * registry the API uses, so every write gets a resourceVersion and reaches watchers.
 */
import { RESOURCES, type KubeObject, type ResourceInfo } from '../resources.ts';
import type { ListQuery } from './list.ts';
import { objectKey } from './store.ts';
import type { DeleteOptions, Registry } from './registry.ts';

function byKind(apiVersion: string | undefined, kind: string | undefined): ResourceInfo {
  const [group, version] = (apiVersion ?? 'v1').includes('/') ? (apiVersion ?? '').split('/') : ['', apiVersion ?? 'v1'];
  const r = RESOURCES.find((x) => x.kind === kind && x.group === group && x.version === version && x.stored);
  if (!r) throw new Error(`double store: no resource for ${apiVersion} ${kind}`);
  return r;
}

export class DoubleStore {
  constructor(readonly registry: Registry) {}

  get(resource: string, namespace: string | undefined, name: string, group = ''): KubeObject | undefined {
    return this.registry.tryGet(this.registry.resource(group, resource), namespace, name);
  }

  list(resource: string, q: ListQuery = {}, group = ''): KubeObject[] {
    return this.registry.list(this.registry.resource(group, resource), q).items;
  }

  /** Create through the API rules (defaults, uid, ...); throws ApiError like the HTTP API would answer. */
  create(obj: KubeObject): KubeObject {
    const r = byKind(obj.apiVersion, obj.kind);
    return this.registry.create(r, obj.metadata?.namespace, obj);
  }

  /**
   * Create a pod a real API server refuses (422), as an API server that skipped validation would store it:
   * for tests of what the kubelet does with such a pod. Defaults and admission still apply.
   */
  createUnvalidated(obj: KubeObject): KubeObject {
    const r = byKind(obj.apiVersion, obj.kind);
    return this.registry.create(r, obj.metadata?.namespace, obj, false);
  }

  /**
   * Write an object as given (status included): creates it when absent (then sets its status), otherwise
   * replaces it keeping uid / creationTimestamp. Emits ADDED / MODIFIED like any API write.
   */
  put(obj: KubeObject): KubeObject {
    const r = byKind(obj.apiVersion, obj.kind);
    const ns = r.namespaced ? (obj.metadata.namespace ?? 'default') : undefined;
    const old = this.registry.tryGet(r, ns, obj.metadata.name);
    if (!old) {
      const created = this.registry.create(r, ns, obj);
      if (obj.status === undefined || !r.hasStatus) return created;
      return this.registry.update(r, ns, created.metadata.name, { ...created, status: obj.status }, 'status');
    }
    const next = structuredClone(obj);
    next.metadata = { ...next.metadata, uid: old.metadata.uid, creationTimestamp: old.metadata.creationTimestamp, namespace: ns };
    return this.registry.raw.put(this.key(r), objectKey(ns, obj.metadata.name), next);
  }

  delete(resource: string, namespace: string | undefined, name: string, opts: DeleteOptions = {}, group = ''): KubeObject {
    return this.registry.delete(this.registry.resource(group, resource), namespace, name, opts);
  }

  currentRv(): number {
    return this.registry.raw.currentRv();
  }

  /** Forget the watch window: watches / exact lists from older RVs now get 410 Expired. */
  compact(): void {
    this.registry.raw.compact();
  }

  private key(r: ResourceInfo): string {
    return r.group ? `${r.resource}.${r.group}` : r.resource;
  }
}
