/**
 * Wires the volume manager with the configMap / secret managers (get + TTL over the API client) and the
 * token manager, and runs their housekeeping: orphaned pod dirs are torn down every housekeeping period once
 * all pod sources are ready (so a restarted agent does not drop the volumes of pods it has not heard of yet):
 * dirs of pods with nothing running whose runtime and content the pod workers say may go (terminated, and
 * deleted or evicted; or unknown to them); expired tokens are dropped every minute.
 * Only on a real host (deps.hostFs): unit-test kubelets with fake runtimes get no volume manager.
 */
import { userInfo } from 'node:os';
import type { V1Pod } from '@kubernetes/client-node';
import type { EventSink } from '../kuberuntime/types.ts';
import type { TimerHandle } from '../util/clock.ts';
import { ApiObjectManager } from '../podobjects/object-manager.ts';
import { TokenManager } from '../podobjects/token-manager.ts';
import { PodVolumeManager } from '../volume/volume-manager.ts';
import { createMounter } from '../volume/mounter.ts';
import type { Mounter } from '../volume/types.ts';
import type { NodeAllocatable } from '../volume/downward-api.ts';
import type { KubeletConfig, KubeletDeps } from './config.ts';
import type { PodStateProvider } from './pod-state-provider.ts';

export interface VolumeWiringParts {
  sink: EventSink;
  /**
   * The pod workers: a pod's dirs go once its runtime and its content may be removed (the volume manager's
   * desired-state populator: terminated, and deleted or evicted; or unknown to them).
   */
  podState: () => Pick<PodStateProvider, 'shouldPodRuntimeBeRemoved' | 'shouldPodContentBeRemoved'>;
  /** UIDs of pods with running containers or sandboxes. */
  runningUids: () => Promise<Set<string>>;
  /** Every pod source has delivered its pods: before that, no pod dir counts as orphaned. */
  sourcesReady: () => boolean;
  mounter?: Mounter;
  /** The node's allocatable (downward API limits of containers that set none). */
  allocatable?: () => NodeAllocatable;
  /** ConfigMap / Secret cache TTL (default 10 s). */
  objectTtlMs?: number;
}

export class VolumeWiring {
  readonly objects: ApiObjectManager;
  readonly tokens: TokenManager;
  readonly manager: PodVolumeManager;
  private timers: TimerHandle[] = [];
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly deps: KubeletDeps,
    private readonly config: KubeletConfig,
    private readonly parts: VolumeWiringParts,
  ) {
    const { clock, logger } = deps;
    const api = deps.apiClient;
    this.objects = new ApiObjectManager({ clock, ...(api ? { api } : {}) }, parts.objectTtlMs !== undefined ? { ttlMs: parts.objectTtlMs } : {});
    this.tokens = new TokenManager({ clock, ...(api ? { api } : {}) });
    this.manager = new PodVolumeManager(
      {
        clock,
        logger,
        objects: this.objects,
        tokens: this.tokens,
        mounter: parts.mounter ?? createMounter(userInfo().uid === 0),
        event: (pod: V1Pod, type, reason, message) => parts.sink(pod, type, reason, message),
        ...(parts.allocatable ? { allocatable: parts.allocatable } : {}),
      },
      { rootDir: config.rootDir },
    );
  }

  start(): void {
    if (this.timers.length) return;
    const { clock } = this.deps;
    void this.housekeeping();
    this.timers.push(clock.setInterval(() => void this.housekeeping(), this.config.housekeepingPeriodMs ?? 2_000));
    this.timers.push(clock.setInterval(() => this.tokens.cleanup(), 60_000));
  }

  async stop(): Promise<void> {
    for (const t of this.timers) t.cancel();
    this.timers = [];
    await this.inFlight;
    await this.objects.stop();
  }

  /** Removes the volumes of pods that are gone (one pass at a time). */
  housekeeping(): Promise<void> {
    this.inFlight ??= this.cleanup().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async cleanup(): Promise<void> {
    if (!this.parts.sourcesReady()) return;
    let running: Set<string>;
    try {
      running = await this.parts.runningUids();
    } catch {
      return;
    }
    await this.manager
      .cleanupOrphans((uid) => running.has(uid) || !this.removable(uid))
      .catch((err: unknown) => this.deps.logger.warn('volume cleanup failed', { err: String(err) }));
  }

  private removable(uid: string): boolean {
    const s = this.parts.podState();
    return s.shouldPodRuntimeBeRemoved(uid) && s.shouldPodContentBeRemoved(uid);
  }
}

export function buildVolumeWiring(deps: KubeletDeps, config: KubeletConfig, parts: VolumeWiringParts): VolumeWiring | undefined {
  return deps.hostFs ? new VolumeWiring(deps, config, parts) : undefined;
}
