/**
 * What the kubelet does for each pod on the sync loop: admission on add, config ops, PLEG events, probe syncs,
 * sync ticks and housekeeping. The per-pod sync (status, then runtime sync) and the termination path the pod
 * workers call are PodSync's (pod-sync.ts), which PodHandlers extends; its context is pod-handler-context.ts.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { RuntimePod } from '../container/types.ts';
import { podRef } from '../events/recorder.ts';
import { rejectedPodStatus } from '../lifecycle/admit.ts';
import { PreemptedMessage, PreemptingReason } from '../lifecycle/preemption.ts';
import { isMirrorPod } from '../api/pod-helpers.ts';
import type { PodStatusFunc } from './pod-workers.ts';
import type { SyncLoopHandlers } from './sync-loop.ts';
import type { PodLifecycleEvent } from '../pleg/types.ts';
import type { ResultUpdate } from '../prober/types.ts';
import { PodSync } from './pod-sync.ts';
import { uidOf } from './pod-handler-context.ts';

export class PodHandlers extends PodSync implements SyncLoopHandlers {
  private readonly rejected = new Set<string>();
  private cleanupInFlight: Promise<void> | undefined;

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
