/** Stopping containers (honouring the grace period) and sandboxes. */
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { CriClient } from '../cri/types.ts';
import { DEFAULT_CRI_TIMEOUT_MS, isNotFound } from '../cri/types.ts';
import { POD_TERMINATION_GRACE_PERIOD_ANNOTATION } from '../container/labels.ts';
import type { ContainerId, KillPodOptions, PodSyncResult, RuntimePod, SyncStepResult } from '../container/types.ts';
import { DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS, MIN_GRACE_PERIOD_SECONDS, type EventSink } from './types.ts';
import type { Clock } from '../util/clock.ts';
import { hasRestartableInitContainer, TerminationOrdering } from './termination-order.ts';

export interface KillDeps {
  cri: Pick<CriClient, 'stopContainer' | 'stopPodSandbox' | 'containerStatus'>;
  events: EventSink;
  timed: <T>(op: string, fn: () => Promise<T>) => Promise<T>;
  /**
   * Runs the container's preStop hook bounded by `gracePeriodS`; resolves with the seconds StopContainer
   * still gets (grace − hook time, at least 2). Absent: no hooks run.
   */
  preStop?: (pod: V1Pod, container: V1Container, containerId: string, gracePeriodS: number) => Promise<number>;
  /** Times the sidecar termination ordering's wait; without it a pod's containers are all stopped at once. */
  clock?: Clock;
}

/** Seconds a container gets between the stop signal and SIGKILL. */
export function gracePeriodFor(pod: V1Pod | undefined, annotations: Record<string, string>, override?: number): number {
  let grace = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  if (pod) grace = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? grace;
  else {
    const a = Number.parseInt(annotations[POD_TERMINATION_GRACE_PERIOD_ANNOTATION] ?? '', 10);
    if (Number.isFinite(a)) grace = a;
  }
  if (grace < MIN_GRACE_PERIOD_SECONDS) grace = MIN_GRACE_PERIOD_SECONDS;
  if (override !== undefined) grace = override;
  return grace;
}

function specOf(pod: V1Pod | undefined, name: string): V1Container | undefined {
  return [...(pod?.spec?.containers ?? []), ...(pod?.spec?.initContainers ?? [])].find((c) => c.name === name);
}

function fieldPathOf(pod: V1Pod, name: string): string | undefined {
  if ((pod.spec?.containers ?? []).some((c) => c.name === name)) return `spec.containers{${name}}`;
  if ((pod.spec?.initContainers ?? []).some((c) => c.name === name)) return `spec.initContainers{${name}}`;
  if ((pod.spec?.ephemeralContainers ?? []).some((c) => c.name === name)) return `spec.ephemeralContainers{${name}}`;
  return undefined;
}

export async function killContainer(
  deps: KillDeps,
  pod: V1Pod | undefined,
  id: ContainerId,
  name: string,
  message: string,
  gracePeriodOverride?: number,
  /** The grace period before preStop (a liveness/startup probe's terminationGracePeriodSeconds). */
  baseGracePeriodS?: number,
  /** A pod kill with sidecars: the container waits for its turn (termination-order.ts). */
  ordering?: TerminationOrdering,
): Promise<SyncStepResult> {
  const step: SyncStepResult = { action: 'KillContainer', target: name };
  let annotations: Record<string, string> = {};
  if (!pod) {
    try {
      annotations = (await deps.cri.containerStatus({ containerId: id.id })).status?.annotations ?? {};
    } catch {
      // restore nothing: defaults apply
    }
  }
  let grace = baseGracePeriodS ?? gracePeriodFor(pod, annotations);
  if (pod) deps.events(pod, 'Normal', 'Killing', message || `Stopping container ${name}`, fieldPathOf(pod, name));
  const spec = specOf(pod, name);
  // preStop spends the grace period first; StopContainer gets the rest (kuberuntime killContainer).
  if (pod && spec?.lifecycle?.preStop && deps.preStop && grace > 0) grace = await deps.preStop(pod, spec, id.id, grace);
  // Then its turn (app containers first, sidecars in reverse order), out of what is left of the grace period.
  if (ordering && grace > 0) grace -= Math.trunc(await ordering.waitForTurn(name, grace));
  if (grace < MIN_GRACE_PERIOD_SECONDS) grace = MIN_GRACE_PERIOD_SECONDS;
  if (gracePeriodOverride !== undefined) grace = gracePeriodOverride;
  try {
    await deps.timed('stop_container', () =>
      deps.cri.stopContainer({ containerId: id.id, timeout: grace }, { timeoutMs: grace * 1000 + DEFAULT_CRI_TIMEOUT_MS }),
    );
  } catch (err) {
    if (!isNotFound(err)) {
      step.error = 'KillContainerError';
      step.message = `failed to stop container ${name}: ${String(err)}`;
    }
  }
  if (!step.error) ordering?.containerTerminated(name);
  return step;
}

export async function killPodWithDeps(deps: KillDeps, pod: V1Pod | undefined, running: RuntimePod, opts: KillPodOptions = {}): Promise<PodSyncResult> {
  const victims = running.containers.filter((c) => c.state === 'running' || c.state === 'unknown' || c.state === 'created');
  const ordering = pod && deps.clock && hasRestartableInitContainer(pod) ? new TerminationOrdering(pod, victims.map((c) => c.name), deps.clock) : undefined;
  const steps = await Promise.all(victims.map((c) => killContainer(deps, pod, c.id, c.name, opts.reason ?? '', opts.gracePeriodOverride, undefined, ordering)));
  const result: PodSyncResult = { steps: [...steps] };
  const failed = steps.find((s) => s.error);
  if (failed) {
    result.error = { reason: failed.error ?? 'KillContainerError', message: failed.message ?? '' };
    return result;
  }
  for (const sb of running.sandboxes) {
    const step: SyncStepResult = { action: 'KillPodSandbox', target: sb.id.id };
    try {
      await deps.timed('stop_podsandbox', () => deps.cri.stopPodSandbox({ podSandboxId: sb.id.id }));
    } catch (err) {
      if (!isNotFound(err)) {
        step.error = 'KillPodSandboxError';
        step.message = `failed to stop sandbox ${sb.id.id}: ${String(err)}`;
        result.error ??= { reason: step.error, message: step.message };
      }
    }
    result.steps.push(step);
  }
  return result;
}
