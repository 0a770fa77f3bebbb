/**
 * The rest of the kubelet's generateAPIPodStatus around the status derived from the runtime (pod-status.ts):
 * the reason and message that came with the phase (and a DisruptionTarget condition) are kept from the status
 * manager's status — a kill's status change (Evicted) outlives the statuses generated after it — and the pod
 * sync handlers' verdicts (active deadline) fail the pod.
 */
import type { V1Pod, V1PodStatus } from '@kubernetes/client-node';
import { isTerminalPhase } from '../status/brief.ts';
import type { PodSyncHandler } from './active-deadline.ts';

export function mergeApiPodStatus(pod: V1Pod, s: V1PodStatus, old: V1PodStatus | undefined, handlers: readonly PodSyncHandler[] = []): V1PodStatus {
  // A terminal phase is never left (the status manager enforces it too).
  if (old && !isTerminalPhase(s.phase) && isTerminalPhase(old.phase)) s.phase = old.phase;
  if (old && s.phase === old.phase) {
    // "preserve the reason and message which is associated with the phase"
    if (old.reason) s.reason = old.reason;
    else delete s.reason;
    if (old.message) s.message = old.message;
    else delete s.message;
  }
  for (const h of handlers) {
    const r = h.shouldEvict(pod);
    if (!r.evict) continue;
    s.phase = 'Failed';
    s.reason = r.reason;
    s.message = r.message;
    break;
  }
  // Disruption conditions are one-time events (eviction, shutdown): copied over, never regenerated.
  const disruption = old?.conditions?.find((c) => c.type === 'DisruptionTarget');
  if (disruption) s.conditions = [...(s.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'), disruption];
  return s;
}
