/**
 * The eviction manager's admit handler: under node pressure new pods are refused with reason Evicted, except
 * critical pods; under MemoryPressure alone only BestEffort pods are refused (unless they tolerate the
 * node.kubernetes.io/memory-pressure taint).
 */
import { isCriticalPod } from '../api/pod-helpers.ts';
import { getPodQOS } from '../api/qos.ts';
import type { PodAdmitAttributes, PodAdmitHandler, PodAdmitResult } from './types.ts';

export const EvictedReason = 'Evicted';

export function admitUnderPressure(attrs: PodAdmitAttributes): PodAdmitResult {
  const pressure = attrs.node.pressure ?? [];
  if (pressure.length === 0 || isCriticalPod(attrs.pod)) return { admit: true };
  if (pressure.length === 1 && pressure[0] === 'MemoryPressure') {
    if (getPodQOS(attrs.pod) !== 'BestEffort') return { admit: true };
    const tolerates = (attrs.pod.spec?.tolerations ?? []).some(
      (t) =>
        (t.operator === 'Exists' && (!t.key || t.key === 'node.kubernetes.io/memory-pressure')) ||
        (t.key === 'node.kubernetes.io/memory-pressure' && (!t.effect || t.effect === 'NoSchedule')),
    );
    if (tolerates) return { admit: true };
  }
  return { admit: false, reason: EvictedReason, message: `The node had condition: [${pressure.join(' ')}]. ` };
}

export const evictionAdmitHandler: PodAdmitHandler = { name: 'eviction', admit: admitUnderPressure };
