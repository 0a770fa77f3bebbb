/**
 * The eviction manager loop (pkg/kubelet/eviction/eviction_manager.go synchronize), every 10 s:
 * observe signals → thresholds met (plus those not yet resolved by their minimum reclaim) → node conditions
 * (held for evictionPressureTransitionPeriod) → grace periods → act on thresholds whose stats are fresh:
 * reclaim node-level resources first (disk signals: dead containers, unused images), else rank the active pods
 * and evict the first one that is not critical. At most one pod per pass.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Summary } from '../stats/summary-types.ts';
import { isCriticalPod } from '../api/pod-helpers.ts';
import { getPodQOS } from '../api/qos.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { rankPods } from './ranking.ts';
import {
  byEvictionPriority, makeObservations, mergeThresholds, podUsageByUid, signalCondition, signalResource, statsUpdated, thresholdKey, thresholdsMet,
} from './signals.ts';
import { evictionMessage, signalStates } from './state.ts';
import type { EvictionRecord, Observations, PressureCondition, PressureState, Signal, Threshold } from './types.ts';

export interface EvictionKillRequest {
  pod: V1Pod;
  gracePeriodOverrideSeconds: number;
  reason: 'Evicted';
  message: string;
}

export interface NodeReclaimer {
  name: string;
  reclaim(): Promise<void>;
}

export interface EvictionManagerDeps {
  clock: Clock;
  logger: Logger;
  /** Fresh Summary (undefined while stats are unavailable). */
  summary(): Promise<Summary | undefined>;
  activePods(): V1Pod[];
  /** Kills the pod and records its final status (Failed / Evicted / message); false when it could not. */
  killPod(req: EvictionKillRequest): Promise<boolean>;
  /** Node-level reclaim for disk signals, in order (container GC, then image GC). */
  reclaimers?: NodeReclaimer[];
  /** Kubernetes events: the node's EvictionThresholdMet, the pod's Evicted. */
  event(target: { kind: 'Node' } | { kind: 'Pod'; pod: V1Pod }, type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** kubelet_evictions{eviction_signal}. */
  countEviction?(signal: Signal): void;
  /** Called after every pass with the new state (the agent streams it). */
  onState?(state: PressureState, changed: boolean): void;
}

export interface EvictionManagerConfig {
  thresholds: Threshold[];
  pressureTransitionPeriodMs: number;
  /** evictionMonitoringPeriod (10 s). */
  monitoringPeriodMs: number;
  /** evictionMaxPodGracePeriod for soft evictions (seconds; 0 = immediate). */
  maxPodGracePeriodSeconds: number;
  /** Evictions kept for the console (default 50). */
  historyLimit?: number;
}

export class EvictionManager {
  private met: Threshold[] = [];
  private firstObservedAt = new Map<string, number>();
  private conditionLastObservedAt = new Map<PressureCondition, number>();
  private conditions: PressureCondition[] = [];
  private lastObservations: Observations = {};
  private evictions: EvictionRecord[] = [];
  private lastSync: number | undefined;
  private lastError: string | undefined;
  private timer: TimerHandle | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly deps: EvictionManagerDeps,
    private readonly config: EvictionManagerConfig,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = this.deps.clock.setInterval(() => void this.synchronize(), this.config.monitoringPeriodMs);
    void this.synchronize();
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Node conditions currently True (what admission reads). */
  pressure(): PressureCondition[] {
    return [...this.conditions];
  }

  state(): PressureState {
    const now = this.deps.clock.now();
    const s: PressureState = {
      conditions: this.pressure(),
      signals: signalStates(this.config.thresholds, this.lastObservations, this.met, this.firstObservedAt, now),
      evictions: [...this.evictions],
      pressureTransitionPeriodMs: this.config.pressureTransitionPeriodMs,
    };
    if (this.lastSync !== undefined) s.lastSync = new Date(this.lastSync).toISOString();
    if (this.lastError !== undefined) s.lastError = this.lastError;
    return s;
  }

  /** One pass; concurrent calls join the running one. */
  synchronize(): Promise<void> {
    this.running ??= this.pass()
      .catch((err: unknown) => {
        this.lastError = String(err);
        this.deps.logger.warn('eviction manager: pass failed', { err: String(err) });
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    const { clock } = this.deps;
    const summary = await this.deps.summary();
    const now = clock.now();
    this.lastSync = now;
    if (!summary) {
      this.lastError = 'stats unavailable';
      return;
    }
    this.lastError = undefined;
    const obs = makeObservations(summary, now);
    let thresholds = thresholdsMet(this.config.thresholds, obs, false);
    if (this.met.length > 0) thresholds = mergeThresholds(thresholds, thresholdsMet(this.met, obs, true));
    this.updateFirstObserved(thresholds, now);
    const changed = this.updateConditions(thresholds, now);
    const actionable = thresholds
      .filter((t) => now - (this.firstObservedAt.get(thresholdKey(t)) ?? now) >= t.gracePeriodMs)
      .filter((t) => statsUpdated(t, obs, this.lastObservations));
    this.met = thresholds;
    this.lastObservations = obs;
    this.deps.onState?.(this.state(), changed);
    if (actionable.length === 0) return;
    actionable.sort(byEvictionPriority);
    const target = actionable[0] as Threshold;
    this.deps.event({ kind: 'Node' }, 'Warning', 'EvictionThresholdMet', `Attempting to reclaim ${signalResource(target.signal)}`);
    if (await this.reclaimNodeLevel(target)) return;
    await this.evictOne(target, obs, summary);
  }

  private updateFirstObserved(thresholds: Threshold[], now: number): void {
    const next = new Map<string, number>();
    for (const t of thresholds) next.set(thresholdKey(t), this.firstObservedAt.get(thresholdKey(t)) ?? now);
    this.firstObservedAt = next;
  }

  private updateConditions(thresholds: Threshold[], now: number): boolean {
    for (const t of thresholds) this.conditionLastObservedAt.set(signalCondition(t.signal), now);
    const order: PressureCondition[] = ['MemoryPressure', 'DiskPressure', 'PIDPressure'];
    const next = order.filter((c) => {
      const at = this.conditionLastObservedAt.get(c);
      return at !== undefined && now - at < this.config.pressureTransitionPeriodMs;
    });
    const changed = next.join() !== this.conditions.join();
    this.conditions = next;
    return changed;
  }

  /** Disk signals: run the node reclaimers, then re-observe; true when the threshold (with min reclaim) is resolved. */
  private async reclaimNodeLevel(t: Threshold): Promise<boolean> {
    const reclaimers = this.deps.reclaimers ?? [];
    if (t.signal === 'memory.available' || t.signal === 'pid.available' || reclaimers.length === 0) return false;
    for (const r of reclaimers) {
      try {
        await r.reclaim();
      } catch (err) {
        this.deps.logger.warn('eviction manager: node reclaim failed', { reclaimer: r.name, err: String(err) });
      }
    }
    const fresh = await this.deps.summary();
    if (!fresh) return false;
    const obs = makeObservations(fresh, this.deps.clock.now());
    const resolved = thresholdsMet([t], obs, true).length === 0;
    if (resolved) this.deps.logger.info('eviction manager: node-level reclaim resolved pressure', { signal: t.signal });
    return resolved;
  }

  private async evictOne(t: Threshold, obs: Observations, summary: Summary): Promise<void> {
    const usage = podUsageByUid(summary, t.signal);
    const ranked = rankPods(this.deps.activePods(), t.signal, (p) => usage.get(p.metadata?.uid ?? ''));
    if (ranked.length === 0) {
      this.deps.logger.info('eviction manager: no pods to evict', { signal: t.signal });
      return;
    }
    for (const pod of ranked) {
      if (isCriticalPod(pod)) continue;
      const message = evictionMessage(t, obs);
      const grace = t.kind === 'hard' ? 0 : this.config.maxPodGracePeriodSeconds;
      const ok = await this.deps.killPod({ pod, gracePeriodOverrideSeconds: grace, reason: 'Evicted', message });
      if (!ok) continue;
      this.deps.event({ kind: 'Pod', pod }, 'Warning', 'Evicted', message);
      this.deps.countEviction?.(t.signal);
      const m = pod.metadata ?? {};
      this.evictions.push({
        time: new Date(this.deps.clock.now()).toISOString(),
        pod: { namespace: m.namespace ?? 'default', name: m.name ?? '', uid: m.uid ?? '' },
        signal: t.signal,
        message,
        qosClass: getPodQOS(pod),
      });
      this.evictions = this.evictions.slice(-(this.config.historyLimit ?? 50));
      return;
    }
    this.deps.logger.warn('eviction manager: unable to evict any pods from the node', { signal: t.signal });
  }
}
