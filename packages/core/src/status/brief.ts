/** ContainerBrief list and status comparison helpers for the status manager. */
import type { V1ContainerStatus, V1PodStatus } from '@kubernetes/client-node';
import type { ContainerBrief } from '../events/types.ts';
import { canonicalJson } from '../util/hash.ts';
import { byCodeUnit } from '../util/compare.ts';

export function containerBrief(s: V1ContainerStatus, init: boolean): ContainerBrief {
  const st = s.state;
  const state: ContainerBrief['state'] = st?.running ? 'running' : st?.terminated ? 'terminated' : 'waiting';
  const reason = st?.terminated?.reason ?? st?.waiting?.reason;
  const b: ContainerBrief = { name: s.name, state, ready: s.ready, restartCount: s.restartCount ?? 0 };
  if (reason) b.reason = reason;
  if (init) b.init = true;
  return b;
}

/** Init containers first, then app containers. */
export function containerBriefs(status: V1PodStatus): ContainerBrief[] {
  return [
    ...(status.initContainerStatuses ?? []).map((s) => containerBrief(s, true)),
    ...(status.containerStatuses ?? []).map((s) => containerBrief(s, false)),
  ];
}

/** Status identity as the kubelet sees it: lastProbeTime/heartbeat churn does not count as a change. */
export function statusKey(status: V1PodStatus): string {
  const conditions = (status.conditions ?? []).map((c) => {
    const { lastProbeTime: _p, ...rest } = c as typeof c & { lastHeartbeatTime?: unknown };
    delete (rest as { lastHeartbeatTime?: unknown }).lastHeartbeatTime;
    return rest;
  });
  conditions.sort((a, b) => byCodeUnit(a.type, b.type));
  return canonicalJson({ ...status, conditions });
}

export function isTerminalPhase(phase: string | undefined): boolean {
  return phase === 'Succeeded' || phase === 'Failed';
}
