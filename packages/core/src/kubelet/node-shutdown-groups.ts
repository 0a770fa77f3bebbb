/**
 * The kubelet's node shutdown groups (pkg/kubelet/nodeshutdown, v1.28): shutdownGracePeriod and
 * shutdownGracePeriodCriticalPods become two priority groups (migrateConfig), pods are sorted into them by
 * spec.priority (groupByPriority), and the groups are shut down lowest priority first.
 */
import type { V1Pod } from '@kubernetes/client-node';

/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
export const DEFAULT_POD_PRIORITY = 0;
/** scheduling.SystemCriticalPriority: system-cluster-critical and above. */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** kubeletconfig.ShutdownGracePeriodByPodPriority. */
export interface ShutdownGracePeriodByPodPriority {
  priority: number;
  shutdownGracePeriodSeconds: number;
}

export interface PodShutdownGroup extends ShutdownGracePeriodByPodPriority {
  pods: V1Pod[];
}

/**
 * migrateConfig: (shutdownGracePeriod, shutdownGracePeriodCriticalPods) in seconds → the regular group (period
 * minus the critical share) and the critical group; none when the period is 0 or the critical share exceeds it.
 */
export function migrateConfig(periodSeconds: number, criticalSeconds: number): ShutdownGracePeriodByPodPriority[] {
  if (periodSeconds === 0) return [];
  const regular = periodSeconds - criticalSeconds;
  if (regular < 0) return [];
  const critical = periodSeconds - regular;
  if (critical < 0) return [];
  return [
    { priority: DEFAULT_POD_PRIORITY, shutdownGracePeriodSeconds: regular },
    { priority: SYSTEM_CRITICAL_PRIORITY, shutdownGracePeriodSeconds: critical },
  ];
}

/** The groups sorted by priority, low to high (NewManager sorts them so). */
export function sortGroups(groups: readonly ShutdownGracePeriodByPodPriority[]): ShutdownGracePeriodByPodPriority[] {
  return [...groups].sort((a, b) => a.priority - b.priority);
}

/**
 * groupByPriority: each pod goes to the group with the highest priority not above its own; pods below the lowest
 * group go to the lowest, above the highest to the highest. `sorted` must be sorted low to high.
 */
export function groupByPriority(sorted: readonly ShutdownGracePeriodByPodPriority[], pods: readonly V1Pod[]): PodShutdownGroup[] {
  const groups: PodShutdownGroup[] = sorted.map((g) => ({ ...g, pods: [] }));
  if (groups.length === 0) return groups;
  for (const pod of pods) {
    const priority = pod.spec?.priority ?? 0;
    let index = groups.findIndex((g) => g.priority >= priority);
    if (index === -1) index = groups.length - 1;
    else if (index > 0 && (groups[index]?.priority ?? 0) > priority) index--;
    groups[index]?.pods.push(pod);
  }
  return groups;
}

/** periodRequested: the sum of the groups' periods (what logind's InhibitDelayMaxSec must allow), seconds. */
export function periodRequestedSeconds(groups: readonly ShutdownGracePeriodByPodPriority[]): number {
  return groups.reduce((sum, g) => sum + g.shutdownGracePeriodSeconds, 0);
}
