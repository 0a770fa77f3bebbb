/**
 * The kubelet's runtime cache (pkg/kubelet/container/runtime_cache.go): the running pods as the runtime last listed
 * them, re-listed only when the list is older than the refresh period (runtimeCacheRefreshPeriod = housekeepingPeriod
 * + housekeepingWarningDuration = 3 s). Housekeeping lists afresh (HandlePodCleanups' ForceUpdateIfOlder(now): a
 * pod killed a moment ago must not be killed again) and the volume manager's orphan scan takes that list: at 110 pods
 * each ListPodSandbox + ListContainers pair costs the runtime the encoding of every item, and the two asked every 2 s
 * each. Concurrent callers share one list in flight.
 */
import type { Clock } from '../util/clock.ts';
import type { RuntimePod } from './types.ts';

export const RUNTIME_CACHE_REFRESH_MS = 3_000;

export class RuntimeCache {
  private pods: RuntimePod[] | undefined;
  private cachedAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<RuntimePod[]> | undefined;

  constructor(
    private readonly list: () => Promise<RuntimePod[]>,
    private readonly clock: Clock,
    private readonly periodMs = RUNTIME_CACHE_REFRESH_MS,
  ) {}

  /** The running pods, listed at most periodMs ago (a failed list throws and is not cached). */
  getPods(): Promise<RuntimePod[]> {
    if (this.pods && this.clock.monotonic() - this.cachedAt < this.periodMs) return Promise.resolve(this.pods);
    return this.update();
  }

  /** The running pods listed now (ForceUpdateIfOlder(now)): a list already in flight began too early, so another one. */
  async forceUpdate(): Promise<RuntimePod[]> {
    await this.inFlight?.catch(() => undefined);
    return this.update();
  }

  private update(): Promise<RuntimePod[]> {
    this.inFlight ??= (async () => {
      const at = this.clock.monotonic();
      try {
        const pods = await this.list();
        this.pods = pods;
        this.cachedAt = at;
        return pods;
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }
}
