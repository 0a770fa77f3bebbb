/**
 * What the node shutdown manager is doing, for people watching (the console's node page, `npm run tail`): the
 * configured groups, and once a shutdown began, each group's pods with their grace period and where their kill
 * is. Times are ISO strings so a client counts down (group: startedAt + shutdownGracePeriodSeconds; pod: startedAt
 * + gracePeriodSeconds). Every change is published on the bus as a `shutdown` event carrying the whole progress;
 * pod-level changes are coalesced (at most one event per PUBLISH_COALESCE_MS), phase and group changes go at once.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { EventBus } from '../events/types.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { ShutdownGracePeriodByPodPriority } from './node-shutdown-groups.ts';
import type { ShutdownGroupProgress, ShutdownProgress } from './node-shutdown-types.ts';

export type { ShutdownGroupProgress, ShutdownPhase, ShutdownPodProgress, ShutdownProgress } from './node-shutdown-types.ts';

export const PUBLISH_COALESCE_MS = 250;

/** Kept by the node shutdown manager; `progress()` is a copy. */
export class ShutdownProgressTracker {
  private state: ShutdownProgress;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly deps: { clock: Clock; bus?: EventBus | undefined },
    groups: readonly ShutdownGracePeriodByPodPriority[],
  ) {
    this.state = { phase: 'idle', groups: groups.map((g) => ({ ...g, state: 'pending', pods: [] })) };
  }

  progress(): ShutdownProgress {
    return structuredClone(this.state);
  }

  begin(message: string): void {
    const groups = this.state.groups.map((g) => ({ priority: g.priority, shutdownGracePeriodSeconds: g.shutdownGracePeriodSeconds, state: 'pending' as const, pods: [] }));
    this.state = { phase: 'shuttingDown', message, startTime: this.now(), groups };
    this.publish();
  }

  cancel(): void {
    this.state = { ...this.state, phase: 'cancelled' };
    delete this.state.message;
    this.publish();
  }

  end(): void {
    this.state.phase = 'done';
    this.state.endTime = this.now();
    this.publish();
  }

  groupStarted(priority: number, pods: ReadonlyArray<{ pod: V1Pod; gracePeriodSeconds: number }>): void {
    const g = this.group(priority);
    if (!g) return;
    const at = this.now();
    g.state = 'running';
    g.startedAt = at;
    g.pods = pods.map(({ pod, gracePeriodSeconds }) => ({
      namespace: pod.metadata?.namespace ?? '',
      name: pod.metadata?.name ?? '',
      uid: pod.metadata?.uid ?? '',
      gracePeriodSeconds,
      state: 'terminating' as const,
      startedAt: at,
    }));
    this.publish();
  }

  groupFinished(priority: number, timedOut: boolean): void {
    const g = this.group(priority);
    if (!g) return;
    g.state = timedOut ? 'timedOut' : 'done';
    g.finishedAt = this.now();
    this.publish();
  }

  podFinished(uid: string, error?: string): void {
    for (const g of this.state.groups) {
      const p = g.pods.find((x) => x.uid === uid && x.state === 'terminating');
      if (!p) continue;
      p.state = error === undefined ? 'terminated' : 'failed';
      p.finishedAt = this.now();
      if (error !== undefined) p.error = error;
      this.timer ??= this.deps.clock.setTimeout(() => this.publish(), PUBLISH_COALESCE_MS);
      return;
    }
  }

  /** Drops a pending coalesced publish (the manager stops). */
  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private publish(): void {
    this.stop();
    this.deps.bus?.publish({ type: 'shutdown', progress: this.progress() });
  }

  private group(priority: number): ShutdownGroupProgress | undefined {
    return this.state.groups.find((g) => g.priority === priority);
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}
