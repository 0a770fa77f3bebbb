/**
 * The kubelet's RuntimeClass manager (pkg/kubelet/runtimeclass): a pod's `runtimeClassName` → the CRI runtime
 * handler passed to RunPodSandbox. No name (or "") is the default handler "". In API-server mode the handler
 * comes from the node.k8s.io/v1 RuntimeClass object of that name (a lazily started list + watch cache); for a
 * node without an API server, from a configured map (--runtime-class-handlers). A class that is not known is
 * the lister's NotFound error: `runtimeclass.node.k8s.io "x" not found`.
 */
import type { ApiClient } from '../apiclient/types.ts';
import { LazyListCache } from '../apiclient/lazy-list-cache.ts';
import type { Clock } from '../util/clock.ts';

/** The part of a node.k8s.io/v1 RuntimeClass the kubelet reads. */
export interface RuntimeClassObject {
  metadata?: { name?: string; resourceVersion?: string };
  handler?: string;
  overhead?: { podFixed?: Record<string, string> };
}

/** LookupRuntimeHandler: the handler, or throws RuntimeClassNotFoundError (or another lookup error). */
export interface RuntimeHandlerResolver {
  lookupRuntimeHandler(runtimeClassName: string | undefined | null): Promise<string>;
}

/** As errors.NewNotFound(nodev1.Resource("runtimeclass"), name). */
export class RuntimeClassNotFoundError extends Error {
  constructor(readonly className: string) {
    super(`runtimeclass.node.k8s.io ${JSON.stringify(className)} not found`);
    this.name = 'RuntimeClassNotFoundError';
  }
}

/** Classes from configuration (a node without an API server): name → handler. */
export class StaticRuntimeClasses implements RuntimeHandlerResolver {
  private readonly handlers: Map<string, string>;

  constructor(handlers: Record<string, string> = {}) {
    this.handlers = new Map(Object.entries(handlers));
  }

  async lookupRuntimeHandler(name: string | undefined | null): Promise<string> {
    if (!name) return '';
    const h = this.handlers.get(name);
    if (h === undefined) throw new RuntimeClassNotFoundError(name);
    return h;
  }
}

/** Classes from the API server: node.k8s.io/v1 RuntimeClass objects (cluster-scoped, keyed by name). */
export class ApiRuntimeClasses implements RuntimeHandlerResolver {
  private readonly cache: LazyListCache<RuntimeClassObject>;

  constructor(deps: { api: ApiClient; clock: Clock; firstListWaitMs?: number }) {
    this.cache = new LazyListCache<RuntimeClassObject>({ ...deps, path: '/apis/node.k8s.io/v1/runtimeclasses', key: (rc) => rc.metadata?.name ?? '' });
  }

  async lookupRuntimeHandler(name: string | undefined | null): Promise<string> {
    if (!name) return '';
    const rc = await this.cache.get(name);
    if (!rc) throw new RuntimeClassNotFoundError(name);
    return rc.handler ?? '';
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }
}
