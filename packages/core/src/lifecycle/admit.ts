/** Runs admit handlers in order (eviction, sysctls, then predicates, as the kubelet registers them). */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { getPodQOS } from '../api/qos.ts';
import { evictionAdmitHandler } from './eviction-admit.ts';
import { predicateAdmitHandler, UnexpectedAdmissionError } from './predicate-admit.ts';
import { createSysctlAllowlist } from './sysctl-admit.ts';
import type { AdmitNode, Admitter, PodAdmitHandler, PodAdmitResult } from './types.ts';

/** The handlers with the sysctl allowlist of safe + `allowedUnsafeSysctls` (an invalid pattern: the error). */
export function admitHandlers(allowedUnsafeSysctls: readonly string[] = []): { ok: true; handlers: PodAdmitHandler[] } | { ok: false; reason: string } {
  const sysctls = createSysctlAllowlist(allowedUnsafeSysctls);
  if (!sysctls.ok) return sysctls;
  return { ok: true, handlers: [evictionAdmitHandler, sysctls.handler, predicateAdmitHandler] };
}

const defaults = admitHandlers();
if (!defaults.ok) throw new Error(defaults.reason); // the safe list is ours: a bad entry is a bug
export const DEFAULT_ADMIT_HANDLERS: readonly PodAdmitHandler[] = defaults.handlers;

export function createAdmitter(handlers: readonly PodAdmitHandler[] = DEFAULT_ADMIT_HANDLERS): Admitter {
  return (pod: V1Pod, activePods: V1Pod[], node: AdmitNode): PodAdmitResult => {
    const uid = pod.metadata?.uid;
    const otherPods = activePods.filter((p) => !uid || p.metadata?.uid !== uid);
    let preempt: V1Pod[] | undefined;
    for (const h of handlers) {
      let r: PodAdmitResult;
      try {
        r = h.admit({ pod, otherPods, node });
      } catch (err) {
        r = { admit: false, reason: UnexpectedAdmissionError, message: `admit handler ${h.name} failed: ${String(err)}` };
      }
      if (!r.admit) return r;
      if (r.preempt?.length) preempt = r.preempt;
    }
    return preempt ? { admit: true, preempt } : { admit: true };
  };
}

/** admit(pod, activePods, node) with the default handlers. */
export const admit: Admitter = createAdmitter();

/** The status the kubelet gives a rejected pod (rejectPod): phase Failed, the reason, "Pod was rejected: ...". */
export function rejectedPodStatus(pod: V1Pod, reason: string, message: string): V1PodStatus {
  return {
    phase: 'Failed',
    reason,
    message: `Pod was rejected: ${message}`,
    qosClass: getPodQOS(pod),
  };
}
