/**
 * The status manager: a versioned pod status cache keyed by pod UID. A new version is recorded only when the
 * status really changed (lastProbeTime-only churn is ignored); every new version is published on the bus as a
 * `podStatus` event and handed to the syncer (API server later; nothing in standalone mode).
 */
import type { V1ContainerStatus, V1Pod, V1PodCondition, V1PodStatus } from '@kubernetes/client-node';
import type { Clock } from '../util/clock.ts';
import type { Logger } from '../util/logger.ts';
import type { EventBus } from '../events/types.ts';
import type { StatusManager, StatusSyncer, VersionedPodStatus } from './types.ts';
import { containerBriefs, isTerminalPhase, statusKey } from './brief.ts';
import { generateContainersReadyCondition, generatePodReadyCondition } from './generate.ts';
import { terminalPodStatus } from './terminal-status.ts';

export interface StatusManagerDeps {
  clock: Clock;
  bus?: EventBus;
  logger?: Logger;
  syncer?: StatusSyncer;
}

interface Entry {
  pod: V1Pod;
  v: VersionedPodStatus;
  key: string;
}

export class BasicStatusManager implements StatusManager {
  private readonly cache = new Map<string, Entry>();
  private running = false;

  constructor(private readonly deps: StatusManagerDeps) {}

  start(): void {
    this.running = true;
  }

  stop(): void {
    this.running = false;
  }

  setPodStatus(pod: V1Pod, status: V1PodStatus): number {
    const uid = pod.metadata?.uid ?? '';
    const prev = this.cache.get(uid);
    const next = this.normalize(structuredClone(status), prev?.v.status, pod);
    return this.record(pod, next, prev);
  }

  terminatePod(pod: V1Pod): void {
    const old = this.cache.get(pod.metadata?.uid ?? '')?.v.status ?? pod.status ?? {};
    this.setPodStatus(pod, terminalPodStatus(pod, old));
  }

  getPodStatus(uid: string): V1PodStatus | undefined {
    return this.cache.get(uid)?.v.status;
  }

  getVersionedStatus(uid: string): VersionedPodStatus | undefined {
    return this.cache.get(uid)?.v;
  }

  setContainerReadiness(podUid: string, containerName: string, ready: boolean): void {
    this.mutateContainer(podUid, containerName, (s) => {
      s.ready = ready;
    });
  }

  setContainerStartup(podUid: string, containerName: string, started: boolean): void {
    this.mutateContainer(podUid, containerName, (s) => {
      s.started = started;
    });
  }

  removeOrphanedStatuses(keep: ReadonlySet<string>): void {
    for (const uid of [...this.cache.keys()]) {
      if (keep.has(uid)) continue;
      this.cache.delete(uid);
      this.deps.syncer?.forget?.(uid);
    }
  }

  private mutateContainer(uid: string, name: string, fn: (s: V1ContainerStatus) => void): void {
    const prev = this.cache.get(uid);
    if (!prev) {
      this.deps.logger?.debug('status for pod not found; skipping container update', { podUid: uid, container: name });
      return;
    }
    const status = structuredClone(prev.v.status);
    const s = [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])].find((c) => c.name === name);
    if (!s) return;
    fn(s);
    const all = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])];
    const cr = generateContainersReadyCondition(prev.pod, all, status.phase);
    const ready = generatePodReadyCondition(prev.pod, status.conditions, all, status.phase);
    status.conditions = replaceCondition(replaceCondition(status.conditions ?? [], cr), ready);
    this.record(prev.pod, this.normalize(status, prev.v.status, prev.pod), prev);
  }

  /** Keeps transition times of unchanged conditions, startTime, and terminal phases. */
  private normalize(status: V1PodStatus, old: V1PodStatus | undefined, pod: V1Pod): V1PodStatus {
    const now = new Date(this.deps.clock.now());
    for (const c of status.conditions ?? []) {
      const o = old?.conditions?.find((x) => x.type === c.type);
      if (o && o.status === c.status && o.lastTransitionTime) c.lastTransitionTime = o.lastTransitionTime;
      else if (!o || o.status !== c.status) c.lastTransitionTime = now;
    }
    if (old?.startTime) status.startTime = old.startTime;
    else if (!status.startTime) status.startTime = now;
    if (old && isTerminalPhase(old.phase) && !isTerminalPhase(status.phase)) {
      this.deps.logger?.warn('pod attempted illegal phase transition; keeping terminal phase', {
        pod: `${pod.metadata?.namespace}/${pod.metadata?.name}`,
        from: old.phase,
        to: status.phase,
      });
      status.phase = old.phase;
    }
    return status;
  }

  private record(pod: V1Pod, status: V1PodStatus, prev: Entry | undefined): number {
    const key = statusKey(status);
    if (prev && prev.key === key) {
      prev.pod = pod;
      return prev.v.version;
    }
    const ref = { namespace: pod.metadata?.namespace ?? 'default', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' };
    const v: VersionedPodStatus = { pod: ref, status, version: (prev?.v.version ?? 0) + 1, at: this.deps.clock.now() };
    this.cache.set(ref.uid, { pod, v, key });
    this.publish(v);
    if (this.running && this.deps.syncer) {
      this.deps.syncer.sync(v).catch((err: unknown) => {
        this.deps.logger?.warn('status sync failed', { pod: `${ref.namespace}/${ref.name}`, error: String(err) });
      });
    }
    return v.version;
  }

  private publish(v: VersionedPodStatus): void {
    const ready = v.status.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    this.deps.bus?.publish({
      type: 'podStatus',
      pod: v.pod,
      phase: v.status.phase ?? 'Pending',
      ready,
      containers: containerBriefs(v.status),
      status: v.status,
    });
  }
}

function replaceCondition(list: V1PodCondition[], c: V1PodCondition): V1PodCondition[] {
  const i = list.findIndex((x) => x.type === c.type);
  if (i < 0) return [...list, c];
  const out = [...list];
  out[i] = { ...c, lastTransitionTime: list[i]?.status === c.status ? list[i]?.lastTransitionTime : undefined };
  return out;
}
