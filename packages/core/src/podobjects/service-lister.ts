/**
 * The kubelet's service lister (kubelet.go serviceLister: a reflector over every Service, API-server mode only)
 * for service environment variables. Started lazily by the first pod that asks: list, then watch from the
 * list's resourceVersion, relisting when the watch ends with an error or 410, after a doubling back-off
 * (800 ms → 30 s). hasSynced once a list succeeded (the kubelet's serviceHasSynced).
 */
import type { V1Service } from '@kubernetes/client-node';
import type { ApiClient } from '../apiclient/types.ts';
import { LazyListCache } from '../apiclient/lazy-list-cache.ts';
import type { Clock } from '../util/clock.ts';

export class ServiceLister extends LazyListCache<V1Service> {
  constructor(deps: { api: ApiClient; clock: Clock; /** How long the first caller waits for the first list (default 2 s). */ firstListWaitMs?: number }) {
    super({ ...deps, path: '/api/v1/services', key: (s) => `${s.metadata?.namespace ?? ''}/${s.metadata?.name ?? ''}` });
  }
}
