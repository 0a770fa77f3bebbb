/**
 * ConfigMap and Secret managers over the API client. The kubelet's default change-detection strategy is
 * "Watch" (a per-object reflector); this one is the simpler get + TTL cache (the kubelet's "Cache" strategy
 * minus its pod-registration invalidation): an object is fetched again once its entry is older than `ttlMs`.
 * Static pods get the kubelet's refusal; without an API client every reference is "not found". With an API
 * client it also lists Services for service env vars (service-lister.ts, started by the first pod that asks).
 */
import type { V1ConfigMap, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';
import type { ApiClient } from '../apiclient/types.ts';
import type { Clock } from '../util/clock.ts';
import { isApiPod, staticPodRefusal, type ObjectResult, type PodObjectSource } from './types.ts';
import { ServiceLister } from './service-lister.ts';

export interface ObjectManagerDeps {
  clock: Clock;
  api?: ApiClient;
}

export interface ObjectManagerConfig {
  /** Cache TTL per object (default 10 s). */
  ttlMs?: number;
}

export const DEFAULT_OBJECT_TTL_MS = 10_000;

interface Entry {
  at: number;
  result: ObjectResult<unknown>;
}

type Kind = { plural: 'configmaps' | 'secrets'; singular: 'configmap' | 'secret' };

export class ApiObjectManager implements PodObjectSource {
  private readonly cache = new Map<string, Entry>();
  private readonly ttlMs: number;
  private services: ServiceLister | undefined;

  constructor(
    private readonly deps: ObjectManagerDeps,
    config: ObjectManagerConfig = {},
  ) {
    this.ttlMs = config.ttlMs ?? DEFAULT_OBJECT_TTL_MS;
  }

  getConfigMap(pod: V1Pod, name: string): Promise<ObjectResult<V1ConfigMap>> {
    return this.get(pod, name, { plural: 'configmaps', singular: 'configmap' }) as Promise<ObjectResult<V1ConfigMap>>;
  }

  getSecret(pod: V1Pod, name: string): Promise<ObjectResult<V1Secret>> {
    return this.get(pod, name, { plural: 'secrets', singular: 'secret' }) as Promise<ObjectResult<V1Secret>>;
  }

  async getServices(pod: V1Pod): Promise<{ ok: true; services: V1Service[] } | { ok: false; message: string }> {
    const api = this.deps.api;
    if (!api) return { ok: true, services: [] };
    this.services ??= new ServiceLister({ api, clock: this.deps.clock });
    const services = await this.services.list();
    if (isApiPod(pod) && !this.services.hasSynced) return { ok: false, message: 'services have not yet been read at least once, cannot construct envvars' };
    return { ok: true, services };
  }

  /** Stops the service reflector (kubelet shutdown). */
  async stop(): Promise<void> {
    await this.services?.stop();
  }

  /** Forgets cached objects (tests, or a pod update that must see fresh objects). */
  invalidate(): void {
    this.cache.clear();
  }

  private async get(pod: V1Pod, name: string, kind: Kind): Promise<ObjectResult<unknown>> {
    if (!isApiPod(pod)) return { ok: false, notFound: false, message: staticPodRefusal(kind.plural) };
    const ns = pod.metadata?.namespace ?? 'default';
    const notFound = { ok: false as const, notFound: true, message: `${kind.singular} "${name}" not found` };
    const api = this.deps.api;
    if (!api) return notFound;
    const key = `${kind.plural}/${ns}/${name}`;
    const now = this.deps.clock.monotonic();
    const hit = this.cache.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.result;
    const r = await api.request({ method: 'GET', path: `/api/v1/namespaces/${encodeURIComponent(ns)}/${kind.plural}/${encodeURIComponent(name)}` });
    let result: ObjectResult<unknown>;
    if (r.ok) result = { ok: true, object: r.body };
    else if (r.status === 404) result = notFound;
    else return { ok: false, notFound: false, message: `failed to get ${kind.singular} ${ns}/${name}: ${r.message}` };
    this.cache.set(key, { at: now, result });
    return result;
  }
}
