/**
 * The kubelet's node shutdown manager (pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go, v1.28). On a
 * shutdown event the node turns NotReady ("node is shutting down"), admission refuses new pods, and the active
 * pods are killed group by group (lowest priority first) THROUGH THE POD WORKERS, each with min(its own grace,
 * its group's) and the status Failed / Terminated; each group is waited for up to its period. Then the logind
 * delay lock is released so the machine may go down. The lock and the signal come from an injected
 * ShutdownInhibitor (systemd-logind over D-Bus on a real host); `shutdownNow()` is the same path without one
 * (the agent's --shutdown-on-sigterm).
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { EventRecorder } from '../events/recorder.ts';
import type { EventBus } from '../events/types.ts';
import type { PodAdmitHandler, PodAdmitResult } from '../lifecycle/types.ts';
import type { Clock, TimerHandle } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import { evictedStatus } from './eviction-wiring.ts';
import { groupByPriority, periodRequestedSeconds, sortGroups, type ShutdownGracePeriodByPodPriority } from './node-shutdown-groups.ts';
import type { PodStatusFunc } from './pod-worker-types.ts';
import { timestampSeconds, type ShutdownMetrics, type ShutdownStateStore } from './node-shutdown-state.ts';
import { ShutdownProgressTracker, type ShutdownProgress } from './node-shutdown-progress.ts';

export const NODE_SHUTDOWN_REASON = 'Terminated';
export const NODE_SHUTDOWN_MESSAGE = 'Pod was terminated in response to imminent node shutdown.';
export const NODE_SHUTDOWN_NOT_ADMITTED_REASON = 'NodeShutdown';
export const NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE = 'Pod was rejected as the node is shutting down.';
/** ShutdownStatus's error: the node's Ready condition message while shutting down. */
export const NODE_SHUTTING_DOWN = 'node is shutting down';
/** The node event's reason (kubeletevents.NodeShutdown). */
export const NODE_SHUTDOWN_EVENT = 'NodeShutdown';
const DBUS_RECONNECT_MS = 1_000;

/** A held delay lock (logind's file descriptor; here whatever holds it). */
export interface InhibitLock {
  readonly id: string;
}

/** The kubelet's dbusInhibiter (systemd/inhibit_linux.go), seconds instead of Go durations. */
export interface ShutdownInhibitor {
  /** logind's InhibitDelayMaxUSec, in seconds. */
  currentInhibitDelaySeconds(): Promise<number>;
  /** Writes the logind.conf.d drop-in raising InhibitDelayMaxSec. */
  overrideInhibitDelay(seconds: number): Promise<void>;
  /** Makes logind re-read its configuration. */
  reloadLogindConf(): Promise<void>;
  /** Takes a delay lock on "shutdown". */
  inhibitShutdown(): Promise<InhibitLock>;
  releaseInhibitLock(lock: InhibitLock): Promise<void>;
  /** Watches PrepareForShutdown; `onEnd` when the watch ends (the bus went away). */
  monitorShutdown(onEvent: (shuttingDown: boolean) => void, onEnd: (err?: string) => void): Promise<{ stop(): void }>;
}

export interface NodeShutdownDeps {
  clock: Clock;
  logger: Logger;
  recorder: Pick<EventRecorder, 'event'>;
  nodeName: string;
  /** The kubelet's active pods (GetActivePods). */
  activePods: () => V1Pod[];
  /** Tells the pod worker to kill the pod with this grace and status change; resolves once it is terminated. */
  killPod: (pod: V1Pod, gracePeriodSeconds: number, status: PodStatusFunc) => Promise<void>;
  /** Posts the node status now (its Ready condition reads shutdownStatus()). */
  syncNodeStatus: () => void;
  inhibitor?: ShutdownInhibitor;
  /** The last shutdown's times (<root-dir>/graceful_node_shutdown_state) and their gauges; both or neither. */
  state?: { store: ShutdownStateStore; metrics: ShutdownMetrics };
  /** Where the progress goes as `shutdown` events (the console's node page). */
  bus?: EventBus;
}

export class NodeShutdownManager {
  private readonly groups: ShutdownGracePeriodByPodPriority[];
  private shuttingDown = false;
  private lock: InhibitLock | undefined;
  private queue: Promise<void> = Promise.resolve();
  private watch: { stop(): void } | undefined;
  private retry: TimerHandle | undefined;
  private stopped = false;
  private readonly tracker: ShutdownProgressTracker;

  /** The admit handler the kubelet registers: no pod is admitted while the node shuts down. */
  readonly admitHandler: PodAdmitHandler = {
    name: 'NodeShutdown',
    admit: (): PodAdmitResult =>
      this.shuttingDown ? { admit: false, reason: NODE_SHUTDOWN_NOT_ADMITTED_REASON, message: NODE_SHUTDOWN_NOT_ADMITTED_MESSAGE } : { admit: true },
  };

  constructor(
    private readonly deps: NodeShutdownDeps,
    byPodPriority: readonly ShutdownGracePeriodByPodPriority[],
  ) {
    this.groups = sortGroups(byPodPriority);
    this.tracker = new ShutdownProgressTracker({ clock: deps.clock, bus: deps.bus }, this.groups);
    deps.logger.info('Creating node shutdown manager', { shutdownGracePeriodByPodPriority: this.groups });
  }

  /** ShutdownStatus: the Ready condition's error while the node shuts down, else undefined. */
  shutdownStatus(): string | undefined {
    return this.shuttingDown ? NODE_SHUTTING_DOWN : undefined;
  }

  /** The configured groups and, once a shutdown began, where each group's and pod's kill is. */
  progress(): ShutdownProgress {
    return this.tracker.progress();
  }

  /** Takes the lock and watches logind (when an inhibitor is given); a failure is logged and retried. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.loadMetrics();
    if (!this.deps.inhibitor) return;
    // As the kubelet: a first failure is reported and not retried; a watch that ends is restarted every second.
    await this.startWatch(this.deps.inhibitor).catch((err: unknown) => this.deps.logger.error('Failed to start node shutdown manager', { err: errText(err) }));
  }

  /** Ends the watch and lets go of the lock (the agent stops; as the kubelet's process exit closes the fd). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.tracker.stop();
    this.retry?.cancel();
    this.watch?.stop();
    this.watch = undefined;
    const lock = this.lock;
    this.lock = undefined;
    if (lock && this.deps.inhibitor) await this.deps.inhibitor.releaseInhibitLock(lock).catch(() => undefined);
  }

  /** A shutdown (true) or its cancellation (false), handled in order as they come. */
  onShutdownEvent(shuttingDown: boolean): Promise<void> {
    this.queue = this.queue.then(() => this.handle(shuttingDown)).catch((err: unknown) => this.deps.logger.error('node shutdown failed', { err: errText(err) }));
    return this.queue;
  }

  /** The same path as logind's PrepareForShutdown(true), without a lock (the agent's opt-in SIGTERM trigger). */
  shutdownNow(): Promise<void> {
    return this.onShutdownEvent(true);
  }

  private async startWatch(inhibitor: ShutdownInhibitor): Promise<void> {
    const requested = periodRequestedSeconds(this.groups);
    const current = await inhibitor.currentInhibitDelaySeconds();
    if (requested > current) {
      await inhibitor.overrideInhibitDelay(requested).catch((err: unknown) => {
        throw new Error(`unable to override inhibit delay by shutdown manager: ${errText(err)}`);
      });
      await inhibitor.reloadLogindConf();
      const updated = await inhibitor.currentInhibitDelaySeconds();
      if (requested > updated) {
        throw new Error(
          `node shutdown manager was unable to update logind InhibitDelayMaxSec to ${requested}s (ShutdownGracePeriod), current value of InhibitDelayMaxSec (${updated}s) is less than requested ShutdownGracePeriod`,
        );
      }
    }
    await this.acquireInhibitLock(inhibitor);
    try {
      this.watch = await inhibitor.monitorShutdown(
        (shuttingDown) => void this.onShutdownEvent(shuttingDown),
        (err) => {
          this.deps.logger.error('Ended to watching the node for shutdown events', { err: err ?? '' });
          this.watch = undefined;
          this.scheduleRestart();
        },
      );
    } catch (err) {
      if (this.lock) await inhibitor.releaseInhibitLock(this.lock).catch(() => undefined);
      this.lock = undefined;
      throw new Error(`failed to monitor shutdown: ${errText(err)}`);
    }
  }

  private scheduleRestart(): void {
    if (this.stopped || !this.deps.inhibitor) return;
    this.retry?.cancel();
    this.retry = this.deps.clock.setTimeout(() => {
      this.deps.logger.debug('Restarting watch for node shutdown events');
      void this.startWatch(inhibitorOf(this.deps)).catch((err: unknown) => {
        this.deps.logger.error('Unable to watch the node for shutdown events', { err: errText(err) });
        this.scheduleRestart();
      });
    }, DBUS_RECONNECT_MS);
  }

  private async acquireInhibitLock(inhibitor: ShutdownInhibitor): Promise<void> {
    const lock = await inhibitor.inhibitShutdown();
    if (this.lock) await inhibitor.releaseInhibitLock(this.lock).catch(() => undefined);
    this.lock = lock;
  }

  private async handle(shuttingDown: boolean): Promise<void> {
    const { logger, recorder, nodeName } = this.deps;
    logger.info('Shutdown manager detected new shutdown event', { event: shuttingDown ? 'shutdown' : 'cancelled' });
    const message = shuttingDown ? 'Shutdown manager detected shutdown event' : 'Shutdown manager detected shutdown cancellation';
    recorder.event({ kind: 'Node', name: nodeName, uid: nodeName }, 'Normal', NODE_SHUTDOWN_EVENT, message);
    const was = this.shuttingDown;
    this.shuttingDown = shuttingDown;
    if (shuttingDown) this.tracker.begin(NODE_SHUTTING_DOWN);
    else if (was) this.tracker.cancel();
    if (!shuttingDown) {
      if (this.deps.inhibitor) await this.acquireInhibitLock(this.deps.inhibitor);
      return;
    }
    this.deps.syncNodeStatus();
    await this.processShutdownEvent();
  }

  private async processShutdownEvent(): Promise<void> {
    const { logger, clock } = this.deps;
    logger.info('Shutdown manager processing shutdown event');
    const startTime = new Date(clock.now()).toISOString();
    await this.recordState({ startTime }, 0);
    try {
      for (const group of groupByPriority(this.groups, this.deps.activePods())) {
        if (group.pods.length === 0) continue;
        this.tracker.groupStarted(group.priority, group.pods.map((pod) => ({ pod, gracePeriodSeconds: graceFor(pod, group.shutdownGracePeriodSeconds) })));
        const kills = group.pods.map((pod) => this.killPod(pod, group.shutdownGracePeriodSeconds));
        let timer: TimerHandle | undefined;
        const timedOut = await Promise.race([
          Promise.all(kills).then(() => false),
          new Promise<boolean>((resolve) => (timer = clock.setTimeout(() => resolve(true), group.shutdownGracePeriodSeconds * 1000))),
        ]);
        timer?.cancel();
        this.tracker.groupFinished(group.priority, timedOut);
        if (timedOut) logger.info('Shutdown manager pod killing time out', { gracePeriod: group.shutdownGracePeriodSeconds, priority: group.priority });
      }
    } finally {
      if (this.lock && this.deps.inhibitor) await this.deps.inhibitor.releaseInhibitLock(this.lock).catch((err: unknown) => logger.warn('releasing the inhibit lock failed', { err: errText(err) }));
      this.lock = undefined;
      await this.recordState({ startTime, endTime: new Date(clock.now()).toISOString() });
      this.tracker.end();
      logger.info('Shutdown manager completed processing shutdown event, node will shutdown shortly');
    }
  }

  /** setMetrics: the last shutdown's times from the state file. */
  private async loadMetrics(): Promise<void> {
    const st = this.deps.state;
    if (!st) return;
    const s = await st.store.load().catch((err: unknown) => void this.deps.logger.error('Failed to load graceful shutdown state', { err: errText(err) }));
    if (s?.startTime) st.metrics.startTime.set(timestampSeconds(s.startTime));
    if (s?.endTime) st.metrics.endTime.set(timestampSeconds(s.endTime));
  }

  /** Stores the state and sets the gauges (end 0 while a shutdown runs). */
  private async recordState(s: { startTime: string; endTime?: string }, end?: number): Promise<void> {
    const st = this.deps.state;
    if (!st) return;
    await st.store.store(s).catch((err: unknown) => this.deps.logger.error('Failed to store graceful shutdown state', { err: errText(err) }));
    st.metrics.startTime.set(timestampSeconds(s.startTime));
    st.metrics.endTime.set(end ?? timestampSeconds(s.endTime));
  }

  private async killPod(pod: V1Pod, groupGraceSeconds: number): Promise<void> {
    const grace = graceFor(pod, groupGraceSeconds);
    const ref = `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
    this.deps.logger.info('Shutdown manager killing pod with gracePeriod', { pod: ref, gracePeriod: grace });
    try {
      await this.deps.killPod(pod, grace, nodeShutdownStatus);
      this.deps.logger.info('Shutdown manager finished killing pod', { pod: ref });
      this.tracker.podFinished(pod.metadata?.uid ?? '');
    } catch (err) {
      this.deps.logger.info('Shutdown manager failed killing pod', { pod: ref, err: errText(err) });
      this.tracker.podFinished(pod.metadata?.uid ?? '', errText(err));
    }
  }
}

/** The pod's own grace when it is shorter than its group's period, else the group's. */
function graceFor(pod: V1Pod, groupGraceSeconds: number): number {
  const own = pod.spec?.terminationGracePeriodSeconds;
  return own !== undefined && own !== null && own <= groupGraceSeconds ? own : groupGraceSeconds;
}

/** The kill's status change: Failed (unless already Succeeded) / Terminated, DisruptionTarget by the kubelet. */
export function nodeShutdownStatus(status: V1PodStatus): void {
  const succeeded = status.phase === 'Succeeded';
  evictedStatus(NODE_SHUTDOWN_REASON, NODE_SHUTDOWN_MESSAGE)(status);
  if (succeeded) status.phase = 'Succeeded';
}

function inhibitorOf(deps: NodeShutdownDeps): ShutdownInhibitor {
  if (!deps.inhibitor) throw new Error('no inhibitor');
  return deps.inhibitor;
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

