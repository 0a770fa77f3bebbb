/**
 * The kubelet's sync loop: one serial consumer of a typed union of inputs — config updates, PLEG events,
 * liveness/startup probe failures and startup successes, sync ticks (1 s: pods whose resync/back-off time came,
 * or past their active deadline) and housekeeping (2 s) — dispatched by an exhaustive switch. Inputs are handled one at a time, in arrival order; handlers hand work to the pod workers.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { PodUpdate } from '../config/types.ts';
import type { PodLifecycleEvent } from '../pleg/types.ts';
import type { BoundedChannel } from '../util/bounded-channel.ts';
import type { ResultUpdate } from '../prober/types.ts';

export type SyncLoopInput =
  | { kind: 'config'; update: PodUpdate }
  | { kind: 'pleg'; event: PodLifecycleEvent }
  | { kind: 'probe'; update: ResultUpdate }
  | { kind: 'syncTick' }
  | { kind: 'housekeeping' };

export interface SyncLoopHandlers {
  handlePodAdditions(pods: V1Pod[]): void | Promise<void>;
  handlePodUpdates(pods: V1Pod[]): void | Promise<void>;
  handlePodRemoves(pods: V1Pod[]): void | Promise<void>;
  handlePodDeletes(pods: V1Pod[]): void | Promise<void>;
  handlePodReconcile(pods: V1Pod[]): void | Promise<void>;
  handlePlegEvent(e: PodLifecycleEvent): void | Promise<void>;
  /** A liveness or startup failure, or a startup success (kubelet.go handleProbeSync): the pod is synced. */
  handleProbeSync(u: ResultUpdate): void | Promise<void>;
  handleSyncTick(): void | Promise<void>;
  handleHousekeeping(): void | Promise<void>;
}

export interface SyncLoopConfig {
  syncTickMs: number;
  housekeepingMs: number;
}

export const DEFAULT_SYNC_LOOP_CONFIG: SyncLoopConfig = { syncTickMs: 1_000, housekeepingMs: 2_000 };

export class SyncLoop {
  private readonly queue: SyncLoopInput[] = [];
  private running = false;
  private draining = false;
  private timers: TimerHandle[] = [];
  private abort: AbortController | undefined;
  /** Clock.now() when the loop last started an iteration (undefined before the first). */
  lastIteration: number | undefined;
  housekeepingRunning = false;

  constructor(
    private readonly deps: { handlers: SyncLoopHandlers; clock: Clock; logger: Logger; pleg: BoundedChannel<PodLifecycleEvent> },
    private readonly config: SyncLoopConfig = DEFAULT_SYNC_LOOP_CONFIG,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    const { clock } = this.deps;
    this.lastIteration = clock.now();
    this.timers.push(clock.setInterval(() => this.push({ kind: 'syncTick' }), this.config.syncTickMs));
    this.timers.push(
      clock.setInterval(() => {
        // Skip a housekeeping tick while the previous one still runs (as the kubelet does).
        if (!this.housekeepingRunning && !this.queue.some((q) => q.kind === 'housekeeping')) this.push({ kind: 'housekeeping' });
      }, this.config.housekeepingMs),
    );
    void this.readPleg(this.abort.signal);
  }

  stop(): void {
    if (!this.running) return;
    this.running = false;
    for (const t of this.timers.splice(0)) t.cancel();
    this.abort?.abort();
    this.queue.length = 0;
  }

  push(input: SyncLoopInput): void {
    if (!this.running) return;
    this.queue.push(input);
    if (!this.draining) void this.drain();
  }

  private async readPleg(signal: AbortSignal): Promise<void> {
    for (;;) {
      let r: IteratorResult<PodLifecycleEvent>;
      try {
        r = await this.deps.pleg.receive(signal);
      } catch {
        return;
      }
      if (r.done) return;
      this.push({ kind: 'pleg', event: r.value });
    }
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      for (let next = this.queue.shift(); next && this.running; next = this.queue.shift()) {
        this.lastIteration = this.deps.clock.now();
        try {
          await this.iteration(next);
        } catch (err) {
          this.deps.logger.error('sync loop iteration failed', { input: next.kind, err: String(err) });
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async iteration(input: SyncLoopInput): Promise<void> {
    const h = this.deps.handlers;
    switch (input.kind) {
      case 'config':
        return this.configUpdate(input.update);
      case 'pleg':
        return h.handlePlegEvent(input.event);
      case 'probe':
        return h.handleProbeSync(input.update);
      case 'syncTick':
        return h.handleSyncTick();
      case 'housekeeping':
        this.housekeepingRunning = true;
        try {
          return await h.handleHousekeeping();
        } finally {
          this.housekeepingRunning = false;
        }
      default:
        return assertNever(input);
    }
  }

  private async configUpdate(u: PodUpdate): Promise<void> {
    const h = this.deps.handlers;
    switch (u.op) {
      case 'ADD':
        return h.handlePodAdditions(u.pods);
      case 'UPDATE':
        return h.handlePodUpdates(u.pods);
      case 'REMOVE':
        return h.handlePodRemoves(u.pods);
      case 'DELETE':
        return h.handlePodDeletes(u.pods);
      case 'RECONCILE':
        return h.handlePodReconcile(u.pods);
      case 'SET':
        // PodConfig only emits incremental ops; a SET here is a bug upstream of us.
        this.deps.logger.warn('sync loop got a SET update; ignoring', { source: u.source });
        return;
      default:
        return assertNever(u.op);
    }
  }
}

function assertNever(x: never): never {
  throw new Error(`unhandled sync loop input ${JSON.stringify(x)}`);
}
