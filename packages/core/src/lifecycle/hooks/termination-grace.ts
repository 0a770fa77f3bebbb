/**
 * How the kubelet spends a container's termination grace period (kuberuntime killContainer): the period is
 * the pod's deletion grace, else (for liveness/startup kills) the probe's terminationGracePeriodSeconds, else
 * the pod's terminationGracePeriodSeconds, else the 2 s minimum; an override (eviction, API) wins. preStop
 * runs first, bounded by the whole period; what it used is subtracted; StopContainer gets the rest (SIGTERM,
 * then SIGKILL when it runs out), never less than 2 s.
 */
import type { V1Container, V1Pod } from '@kubernetes/client-node';

export const MIN_GRACE_PERIOD_SECONDS = 2;

export type KillReason = 'LivenessProbe' | 'StartupProbe' | 'FailedPostStartHook' | 'Other';

export function terminationGracePeriod(pod: V1Pod, container: V1Container | undefined, reason: KillReason, override?: number): number {
  if (override !== undefined) return override;
  const deletion = pod.metadata?.deletionGracePeriodSeconds;
  if (deletion !== undefined && deletion !== null) return deletion;
  const spec = pod.spec?.terminationGracePeriodSeconds;
  if (spec === undefined || spec === null) return MIN_GRACE_PERIOD_SECONDS;
  const probe = reason === 'LivenessProbe' ? container?.livenessProbe : reason === 'StartupProbe' ? container?.startupProbe : undefined;
  return probe?.terminationGracePeriodSeconds ?? spec;
}

/** The StopContainer timeout once preStop has used `preStopElapsedS` of `gracePeriodS`. */
export function stopTimeoutAfterPreStop(gracePeriodS: number, preStopElapsedS: number): number {
  return Math.max(MIN_GRACE_PERIOD_SECONDS, gracePeriodS - Math.max(0, Math.trunc(preStopElapsedS)));
}

export interface GraceSplit {
  gracePeriodS: number;
  /** Seconds preStop may run (0: none configured or no time). */
  preStopBudgetS: number;
}

/** Whether preStop runs and how long it may take. */
export function splitGrace(gracePeriodS: number, container: V1Container | undefined): GraceSplit {
  const has = !!container?.lifecycle?.preStop;
  return { gracePeriodS, preStopBudgetS: has && gracePeriodS > 0 ? gracePeriodS : 0 };
}
