/**
 * Pod workers over recording sync handlers, an injected clock and a real status cache (unit tests of the pod
 * workers and of what asks them). The handlers log each call; `hold` gates every sync until `release()`.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { FakeClock } from '../../util/clock.ts';
import { nullLogger } from '../../util/logger.ts';
import { StatusCache } from '../../container/cache.ts';
import type { PodStatus, RuntimePod } from '../../container/types.ts';
import { PodWorkers, type PodSyncHandlers, type SyncPodOutcome, type UpdateType } from '../pod-workers.ts';
import { makePod } from '../../kuberuntime/testing/builders.ts';

export class RecordingHandlers implements PodSyncHandlers {
  log: string[] = [];
  active = 0;
  maxActive = 0;
  gates: Array<() => void> = [];
  hold = false;
  terminal = new Set<string>();
  /** Pods whose sync reports it changed the runtime. */
  acting = new Set<string>();
  /** Per pod: what its acting sync reports as showing its changes (SyncPodOutcome.shownBy). */
  shown = new Map<string, (s: PodStatus) => boolean>();
  /** Per pod: how many more syncTerminatingPod calls fail (a StopPodSandbox error). */
  failTerminating = new Map<string, number>();
  /** The status each syncPod was given, in order. */
  statuses: PodStatus[] = [];

  private async gate(): Promise<void> {
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    if (this.hold) await new Promise<void>((r) => this.gates.push(r));
    this.active--;
  }

  async syncPod(type: UpdateType, pod: V1Pod, s: PodStatus): Promise<SyncPodOutcome> {
    this.log.push(`sync ${pod.metadata?.name} ${type} v${pod.metadata?.labels?.v ?? ''}`);
    this.statuses.push(s);
    await this.gate();
    const name = pod.metadata?.name ?? '';
    const shownBy = this.shown.get(name);
    return { terminal: this.terminal.has(name), acted: this.acting.has(name), ...(shownBy ? { shownBy } : {}) };
  }
  async syncTerminatingPod(pod: V1Pod, _s: PodStatus, grace?: number): Promise<void> {
    const name = pod.metadata?.name ?? '';
    this.log.push(`terminating ${name} ${grace ?? '-'}`);
    await this.gate();
    const fails = this.failTerminating.get(name) ?? 0;
    if (fails > 0) {
      this.failTerminating.set(name, fails - 1);
      throw new Error('StopPodSandbox: failed to destroy network for sandbox');
    }
  }
  async syncTerminatingRuntimePod(running: RuntimePod): Promise<void> {
    this.log.push(`terminating-runtime ${running.name}`);
  }
  async syncTerminatedPod(pod: V1Pod): Promise<void> {
    this.log.push(`terminated ${pod.metadata?.name}`);
  }
  release(): void {
    for (const g of this.gates.splice(0)) g();
  }
}

/** `random`: the workers' jitter source (0: a resync waits exactly syncFrequency, a retry exactly backOffPeriod). */
export function setupPodWorkers(random: () => number = () => 0) {
  const clock = new FakeClock();
  const cache = new StatusCache();
  cache.updateTime(clock.now());
  const handlers = new RecordingHandlers();
  /** Fresh reads asked for: [uid, clock time when asked]. The test writes the cache itself. */
  const refreshes: Array<[string, number]> = [];
  const slowRead = { gate: Promise.resolve() };
  const refresh = async (uid: string) => {
    refreshes.push([uid, clock.now()]);
    await slowRead.gate;
  };
  const workers = new PodWorkers({ handlers, cache, clock, logger: nullLogger, refresh, random }, { resyncIntervalMs: 60_000, backOffPeriodMs: 10_000 });
  const flush = () => new Promise((r) => setImmediate(r));
  const tick = async () => {
    await flush();
    await clock.step(1);
    cache.updateTime(clock.now());
    await flush();
  };
  return { clock, cache, handlers, workers, flush, tick, refreshes, slowRead };
}

/** A pod named `name` (uid `uid-<name>`) labelled with version `version`. */
export const v = (name: string, version: string): V1Pod => {
  const p = makePod({ name });
  p.metadata!.labels = { v: version };
  return p;
};

/** An empty status of pod `uid` (named p in default), as the tests put it in the cache. */
export function emptyStatus(uid: string): PodStatus {
  return { uid, name: 'p', namespace: 'default', ips: [], sandboxStatuses: [], containerStatuses: [], timestamp: 0 } as unknown as PodStatus;
}
