/**
 * The pod workers' side of the pod handlers (PodSyncHandlers): the per-pod sync (status, then the runtime's sync)
 * and the termination path (SyncTerminatingPod, SyncTerminatingRuntimePod, SyncTerminatedPod); a sync's steps and
 * an admission's verdict are published as `decision` events. PodHandlers (pod-handlers.ts), the sync loop's side,
 * extends it: the kubelet hands one object to both.
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { PodStatus, RuntimePod } from '../container/types.ts';
import type { DecisionBusEvent } from '../events/types.ts';
import { podRef } from '../events/recorder.ts';
import { isTerminalPhase } from '../status/brief.ts';
import { runningPodFromStatus } from '../kuberuntime/runtime-status.ts';
import type { PodStatusFunc, PodSyncHandlers, SyncPodOutcome, UpdateType } from './pod-workers.ts';
import { generateApiPodStatus } from './pod-status.ts';
import { mergeApiPodStatus } from './api-pod-status.ts';
import { readHeardExits } from './heard-exits.ts';
import { syncShownBy } from './sync-shown.ts';
import { uidOf, type PodHandlerContext } from './pod-handler-context.ts';

export class PodSync implements PodSyncHandlers {
  constructor(protected readonly ctx: PodHandlerContext) {}

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

  protected decide(pod: V1Pod, decision: DecisionBusEvent['decision'], what: Pick<DecisionBusEvent, 'reason' | 'message' | 'steps'>): void {
    const m = pod.metadata;
    this.ctx.bus?.publish({ type: 'decision', pod: { namespace: m?.namespace ?? 'default', name: m?.name ?? '', uid: m?.uid ?? '' }, decision, ...what });
  }
}
