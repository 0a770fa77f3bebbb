/**
 * What the kubelet does for each pod: admission on add, the per-pod sync (status, then runtime sync), the
 * termination path, and the sync-loop handlers (config ops, PLEG events, sync ticks, housekeeping).
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { PodStatus, PodStatusCache, RuntimePod } from '../container/types.ts';
import type { PodManager } from '../pod/types.ts';
import type { StatusManager } from '../status/types.ts';
import type { AdmitNode, Admitter } from '../lifecycle/types.ts';
import type { EventRecorder } from '../events/recorder.ts';
import type { DecisionBusEvent, EventBus } from '../events/types.ts';
import { podRef } from '../events/recorder.ts';
import { rejectedPodStatus } from '../lifecycle/admit.ts';
import { PreemptedMessage, PreemptingReason } from '../lifecycle/preemption.ts';
import { isTerminalPhase } from '../status/brief.ts';
import { isMirrorPod } from '../api/pod-helpers.ts';
import type { KubeRuntimeManager } from '../kuberuntime/runtime-manager.ts';
import { runningPodFromStatus } from '../kuberuntime/runtime-status.ts';
import type { PodWorkers, PodStatusFunc, PodSyncHandlers, SyncPodOutcome, UpdateType } from './pod-workers.ts';
import type { SyncLoopHandlers } from './sync-loop.ts';
import type { PodLifecycleEvent } from '../pleg/types.ts';
import { generateApiPodStatus } from './pod-status.ts';
import type { ReasonCache } from './reason-cache.ts';
import type { ProbeManager, ResultUpdate } from '../prober/types.ts';
import type { PodSyncHandler } from './active-deadline.ts';
import { mergeApiPodStatus } from './api-pod-status.ts';
import { readHeardExits } from './heard-exits.ts';
import { syncShownBy } from './sync-shown.ts';

/** What the pod handlers need from the probe manager. */
export type PodProbes = Pick<ProbeManager, 'addPod' | 'removePod' | 'stopLivenessAndStartup' | 'cleanupPods' | 'updatePodStatus'>;

export interface PodHandlerContext {
  clock: Clock;
  logger: Logger;
  runtime: KubeRuntimeManager;
  cache: PodStatusCache;
  podManager: PodManager;
  statusManager: StatusManager;
  recorder: EventRecorder;
  /** Where admission verdicts and sync steps are published (`decision` events: the flight recorder keeps them). */
  bus?: EventBus;
  reasons: ReasonCache;
  admit: Admitter;
  node: () => AdmitNode;
  workers: () => PodWorkers;
  /** The kubelet's active pods (active-pods.ts): admission counts a new pod against them. */
  activePods: () => V1Pod[];
  sourcesReady: () => boolean;
  /** Retry delay after a failed sync without a known back-off. */
  errorBackOffMs: number;
  /** The node's IPs (hostIP of every pod; pod IPs of hostNetwork pods without runtime IPs). */
  hostIPs: string[];
  stopped: () => boolean;
  /** Probe workers per pod; ready/started come from their results. */
  probes?: PodProbes;
  /** Pods they want synced are synced on each tick; their eviction verdicts fail the pod (active deadline). */
  podSyncHandlers?: PodSyncHandler[];
  /** Pod cgroups: ensured before each runtime sync (RunPodSandbox), orphans removed in housekeeping. */
  podCgroups?: { ensurePod(pod: V1Pod): Promise<void>; cleanup(activeUids: Iterable<string>): Promise<void> };
  /** The running pods for housekeeping, listed now (through the kubelet's runtime cache, which others read); default: the runtime's list. */
  runningPods?: () => Promise<RuntimePod[]>;
}

const uidOf = (p: V1Pod): string => p.metadata?.uid ?? '';

export class PodHandlers implements PodSyncHandlers, SyncLoopHandlers {
  private readonly rejected = new Set<string>();
  private cleanupInFlight: Promise<void> | undefined;

  constructor(private readonly ctx: PodHandlerContext) {}

  // ---- per-pod sync (pod workers) ---------------------------------------------------------------------

  async syncPod(_type: UpdateType, pod: V1Pod, cached: PodStatus): Promise<SyncPodOutcome> {
    const c = this.ctx;
    const heard = await readHeardExits(c.runtime, pod, cached, c.clock.now());
    if (!heard.status) return { terminal: false, requeueAfterMs: heard.retryAfterMs };
    const status = heard.status;
    const fill = this.probeFiller();
    const apiStatus = this.apiStatus(pod, status, false, fill);
    c.statusManager.setPodStatus(pod, apiStatus);
    if (isTerminalPhase(apiStatus.phase)) return { terminal: true };
    if (c.stopped()) return { terminal: false };
    await c.podCgroups?.ensurePod(pod);
    const result = await c.runtime.syncPod(pod, status);
    if (result.steps.length) this.decide(pod, 'sync', { steps: result.steps.map((s) => ({ ...s })) });
    c.reasons.update(uidOf(pod), result);
    // Any step tried (even a failed one) may have changed the runtime: the next sync needs a fresh read of the pod,
    // or a status that shows every change (the runtime's event of the last one, sync-shown.ts).
    const acted = result.steps.some((s) => s.error !== 'CrashLoopBackOff');
    const shownBy = syncShownBy(status, result); // none when no step acted
    if (!result.error) return { terminal: false, acted, ...(shownBy ? { shownBy } : {}) };
    // Show the failure (ErrImagePull, CrashLoopBackOff...) now rather than at the next sync.
    c.statusManager.setPodStatus(pod, this.apiStatus(pod, status, false, fill));
    return { terminal: false, acted, requeueAfterMs: this.retryDelay(pod, status) };
  }

  async syncTerminatingPod(pod: V1Pod, status: PodStatus, gracePeriodOverride?: number, podStatusFunc?: PodStatusFunc): Promise<void> {
    const c = this.ctx;
    const name = pod.metadata?.name ?? '';
    if (podStatusFunc) {
      // The kill's status change (Evicted...) is recorded before the containers stop, and kept after (apiStatus).
      const s = this.apiStatus(pod, status, false);
      podStatusFunc(s);
      c.statusManager.setPodStatus(pod, s);
    }
    c.probes?.stopLivenessAndStartup(pod);
    const fresh = await c.runtime.getPodStatus(uidOf(pod), name, pod.metadata?.namespace ?? 'default');
    const r = await c.runtime.killPod(pod, runningPodFromStatus(fresh), { gracePeriodOverride });
    if (r.error) {
      c.recorder.event(podRef(pod), 'Warning', 'FailedKillPod', `error killing pod: ${r.error.message}`);
      throw new Error(r.error.message);
    }
    c.probes?.removePod(pod);
    const readAt = c.clock.now(); // stamped before the read, as PLEG does
    const after = await c.runtime.getPodStatus(uidOf(pod), name, pod.metadata?.namespace ?? 'default');
    c.cache.set(uidOf(pod), after, undefined, readAt);
    if (c.podManager.getPodByUid(uidOf(pod))) c.statusManager.setPodStatus(pod, this.apiStatus(pod, after, true));
  }

  /** generateAPIPodStatus: from the runtime, merged with the status manager's (kept reason), sync handlers' verdicts. */
  private apiStatus(pod: V1Pod, status: PodStatus, podIsTerminal: boolean, fill?: (uid: string, s: V1PodStatus) => void): V1PodStatus {
    const c = this.ctx;
    const s = generateApiPodStatus(pod, status, c.reasons, podIsTerminal, fill, c.hostIPs);
    return mergeApiPodStatus(pod, s, c.statusManager.getPodStatus(uidOf(pod)), c.podSyncHandlers);
  }

  async syncTerminatingRuntimePod(running: RuntimePod, gracePeriodOverride?: number): Promise<void> {
    const r = await this.ctx.runtime.killPod(undefined, running, { gracePeriodOverride });
    if (r.error) throw new Error(r.error.message);
  }

  async syncTerminatedPod(pod: V1Pod, _status: PodStatus): Promise<void> {
    this.ctx.logger.debug('pod terminated', { pod: `${pod.metadata?.namespace}/${pod.metadata?.name}` });
    // As SyncTerminatedPod's statusManager.TerminatePod: the deleted pod's status becomes terminal, so the status
    // manager may delete its API object (a pod whose containers never started would otherwise stay Pending).
    if (this.ctx.podManager.getPodByUid(uidOf(pod))) this.ctx.statusManager.terminatePod(pod);
  }

  private probeFiller(): ((uid: string, s: V1PodStatus) => void) | undefined {
    const p = this.ctx.probes;
    return p ? (uid, s) => void p.updatePodStatus(uid, s) : undefined;
  }

  private retryDelay(pod: V1Pod, status: PodStatus): number {
    const waits = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]
      .map((c) => this.ctx.runtime.backOffRemaining(pod, c, status))
      .filter((ms) => ms > 0);
    return waits.length > 0 ? Math.max(1, Math.min(...waits, this.ctx.errorBackOffMs)) : this.ctx.errorBackOffMs;
  }

  // ---- sync loop ----------------------------------------------------------------------------------------

  handlePodAdditions(pods: V1Pod[]): void {
    const c = this.ctx;
    const sorted = [...pods].sort((a, b) => time(a.metadata?.creationTimestamp) - time(b.metadata?.creationTimestamp));
    for (const pod of sorted) {
      if (this.mirrorOnly(pod)) continue;
      c.podManager.addPod(pod);
      if (pod.metadata?.deletionTimestamp) {
        // Deletion was requested before this kubelet saw the pod (or while it was down): terminate, never start.
        c.workers().updatePod({ updateType: 'kill', pod, gracePeriodOverride: pod.metadata.deletionGracePeriodSeconds });
        continue;
      }
      const active = c.activePods().filter((p) => uidOf(p) !== uidOf(pod));
      const verdict = c.admit(pod, active, c.node());
      if (!verdict.admit) {
        this.rejected.add(uidOf(pod));
        c.logger.info('Pod admission denied', { pod: `${pod.metadata?.namespace}/${pod.metadata?.name}`, podUID: uidOf(pod), reason: verdict.reason, message: verdict.message });
        c.recorder.event(podRef(pod), 'Warning', verdict.reason, verdict.message);
        this.decide(pod, 'refuse', { reason: verdict.reason, message: verdict.message });
        c.statusManager.setPodStatus(pod, rejectedPodStatus(pod, verdict.reason, verdict.message));
        continue;
      }
      if (!this.addProbes(pod)) continue;
      if (verdict.preempt) this.preempt(verdict.preempt, pod);
      this.decide(pod, 'admit', {});
      this.rejected.delete(uidOf(pod));
      c.workers().updatePod({ updateType: 'create', pod });
    }
  }

  /**
   * The critical pod admission handler's evictions: each victim gets the Preempting event and is killed by its pod
   * worker, left Failed / Preempting (the kubelet blocks admission until they are gone; here the kills run beside
   * the new pod's start).
   */
  private preempt(victims: V1Pod[], by: V1Pod): void {
    const c = this.ctx;
    for (const v of victims) {
      c.logger.info('Preempting pod to admit critical pod', { pod: `${v.metadata?.namespace}/${v.metadata?.name}`, criticalPod: `${by.metadata?.namespace}/${by.metadata?.name}` });
      c.recorder.event(podRef(v), 'Warning', PreemptingReason, PreemptedMessage);
      const podStatusFunc: PodStatusFunc = (s) => {
        s.phase = 'Failed';
        s.reason = PreemptingReason;
        s.message = PreemptedMessage;
      };
      c.workers().updatePod({ updateType: 'kill', pod: v, killPodOptions: { evict: true, podStatusFunc } });
    }
  }

  /** Starts the pod's probe workers; an invalid probe refuses the pod (FailedValidation) as the API would. */
  private addProbes(pod: V1Pod): boolean {
    const c = this.ctx;
    const r = c.probes?.addPod(pod);
    if (!r || r.ok) return true;
    const source = pod.metadata?.annotations?.['kubernetes.io/config.source'] ?? 'unknown';
    const message = `Error validating pod ${pod.metadata?.name ?? ''}.${pod.metadata?.namespace ?? ''} from ${source}, ignoring: invalid pod: [${r.message}]`;
    c.logger.warn('refusing pod with invalid probes', { pod: `${pod.metadata?.namespace}/${pod.metadata?.name}`, source, errors: r.errors });
    this.rejected.add(uidOf(pod));
    c.recorder.event(podRef(pod), 'Warning', r.reason, message);
    this.decide(pod, 'refuse', { reason: r.reason, message });
    c.statusManager.setPodStatus(pod, rejectedPodStatus(pod, r.reason, message));
    return false;
  }

  private decide(pod: V1Pod, decision: DecisionBusEvent['decision'], what: Pick<DecisionBusEvent, 'reason' | 'message' | 'steps'>): void {
    const m = pod.metadata;
    this.ctx.bus?.publish({ type: 'decision', pod: { namespace: m?.namespace ?? 'default', name: m?.name ?? '', uid: m?.uid ?? '' }, decision, ...what });
  }

  /** Mirror pods (API copies of static pods) are bookkeeping only: never admitted or run. */
  private mirrorOnly(pod: V1Pod, remove = false): boolean {
    if (!isMirrorPod(pod)) return false;
    if (remove) this.ctx.podManager.removePod(pod);
    else this.ctx.podManager.updatePod(pod);
    return true;
  }

  handlePodUpdates(pods: V1Pod[]): void {
    for (const pod of pods) {
      if (this.mirrorOnly(pod)) continue;
      this.ctx.podManager.updatePod(pod);
      if (this.rejected.has(uidOf(pod))) continue;
      this.ctx.workers().updatePod({ updateType: 'update', pod });
    }
  }

  handlePodRemoves(pods: V1Pod[]): void {
    for (const pod of pods) {
      if (this.mirrorOnly(pod, true)) continue;
      this.ctx.podManager.removePod(pod);
      this.ctx.probes?.stopLivenessAndStartup(pod);
      this.rejected.delete(uidOf(pod));
      this.ctx.workers().updatePod({ updateType: 'kill', pod });
    }
  }

  handlePodDeletes(pods: V1Pod[]): void {
    for (const pod of pods) {
      if (this.mirrorOnly(pod)) continue;
      this.ctx.podManager.updatePod(pod);
      this.ctx.workers().updatePod({ updateType: 'kill', pod, gracePeriodOverride: pod.metadata?.deletionGracePeriodSeconds });
    }
  }

  handlePodReconcile(pods: V1Pod[]): void {
    for (const pod of pods) this.ctx.podManager.updatePod(pod);
  }

  handlePlegEvent(e: PodLifecycleEvent): void {
    if (e.type === 'ContainerRemoved') return;
    const pod = this.ctx.podManager.getPodByUid(e.uid);
    if (pod && !this.rejected.has(e.uid)) this.ctx.workers().updatePod({ updateType: 'sync', pod });
  }

  /** kubelet.go handleProbeSync: a liveness/startup failure or a startup success syncs the pod (computePodActions). */
  handleProbeSync(u: ResultUpdate): void {
    const pod = this.ctx.podManager.getPodByUid(u.podUid);
    if (!pod || this.rejected.has(u.podUid)) return;
    const status = u.probeType === 'startup' ? (u.result === 'success' ? 'started' : 'unstarted') : 'unhealthy';
    this.ctx.logger.info('SyncLoop (probe)', { probe: u.probeType, status, pod: `${pod.metadata?.namespace}/${pod.metadata?.name}` });
    this.ctx.workers().updatePod({ updateType: 'sync', pod });
  }

  /** getPodsToSync: pods whose resync time came, and pods a sync-loop handler asks for (active deadline). */
  handleSyncTick(): void {
    const w = this.ctx.workers();
    const due = new Set(w.takeDue(this.ctx.clock.now()));
    const handlers = this.ctx.podSyncHandlers ?? [];
    if (handlers.length > 0) {
      for (const p of this.ctx.podManager.getPods()) if (handlers.some((h) => h.shouldSync(p))) due.add(uidOf(p));
    }
    for (const uid of due) {
      const pod = this.ctx.podManager.getPodByUid(uid);
      if (pod && !this.rejected.has(uid)) w.updatePod({ updateType: 'sync', pod });
    }
  }

  handleHousekeeping(): void {
    const c = this.ctx;
    const desired = new Set(c.podManager.getPods().map(uidOf));
    const w = c.workers();
    for (const uid of w.knownUids()) {
      const pod = w.podOf(uid);
      if (!desired.has(uid) && !w.isPodTerminationRequested(uid) && pod) w.updatePod({ updateType: 'kill', pod });
    }
    // As the kubelet's HandlePodCleanups, only once every source has delivered its pods: from then on a pod the
    // workers do not know counts as not running (its runtime and content may be removed).
    if (c.sourcesReady()) w.syncKnownPods(desired);
    c.statusManager.removeOrphanedStatuses(desired);
    c.probes?.cleanupPods(desired);
    for (const uid of c.reasons.uids()) if (!desired.has(uid)) c.reasons.remove(uid);
    if (!c.sourcesReady() || c.stopped() || this.cleanupInFlight) return;
    // Runtime calls may block up to the CRI deadline: run them beside the loop, never two at once.
    this.cleanupInFlight = this.runtimeCleanup().finally(() => (this.cleanupInFlight = undefined));
  }

  /** Resolves when the runtime part of the last housekeeping is done (tests, shutdown). */
  async housekeepingIdle(): Promise<void> {
    await this.cleanupInFlight;
  }

  private async runtimeCleanup(): Promise<void> {
    const c = this.ctx;
    const w = c.workers();
    let running: RuntimePod[];
    try {
      running = await (c.runningPods ? c.runningPods() : c.runtime.getPods(false));
    } catch (err) {
      c.logger.warn('housekeeping: failed to list running pods', { err: String(err) });
      return;
    }
    // The desired set as it is now (pods may have been added while we listed).
    const desired = new Set(c.podManager.getPods().map(uidOf));
    for (const rp of running) {
      // A pod worker already in charge of the pod (syncing or terminating it) is left to do so.
      if (desired.has(rp.uid) || !w.shouldPodRuntimeBeRemoved(rp.uid)) continue;
      c.logger.info('killing orphaned pod', { pod: `${rp.namespace}/${rp.name}`, uid: rp.uid });
      w.updatePod({ updateType: 'kill', runningPod: rp });
    }
    if (c.podCgroups) {
      // The kubelet's possiblyRunningPods: pods whose worker syncs or terminates them, and pods the runtime runs.
      const active = new Set([...w.knownUids().filter((uid) => !w.shouldPodRuntimeBeRemoved(uid)), ...running.map((rp) => rp.uid)]);
      await c.podCgroups.cleanup(active).catch((err: unknown) => c.logger.warn('pod cgroup cleanup failed', { err: String(err) }));
    }
  }
}

function time(t: Date | string | undefined): number {
  if (!t) return 0;
  return new Date(t).getTime();
}
