/**
 * Bus events → flight recorder rows: which lifecycle decisions the node keeps and under which kind. Admission and
 * sync steps come from `decision` events (a CrashLoopBackOff step becomes a `backoff` row with its delay), pulls,
 * kills, evictions and other pod events from the kubelet's Kubernetes events, OOM kills from the pod status
 * (a container terminated OOMKilled, once per container id) and the node's SystemOOM, GC removals from `gc`.
 * Probe runs are folded into spans elsewhere (spans.ts). Events already kept in a better form are skipped: the
 * kubelet's BackOff "restarting failed container" (the sync step carries the delay), Unhealthy (probe spans),
 * Created / Started (sync steps and PLEG).
 */
import type { DecisionBusEvent, K8sBusEvent, NodeletEvent, PodStatusBusEvent } from '@nodelet/core/events';
import { parseDuration } from '../config/duration.ts';
import type { RecorderEntryInput, RecorderKind } from './types.ts';

const K8S_KIND: Record<string, RecorderKind | null> = {
  Pulling: 'pull',
  Pulled: 'pull',
  ErrImageNeverPull: 'pull',
  InspectFailed: 'pull',
  Killing: 'kill',
  Preempting: 'kill',
  ExceededGracePeriod: 'kill',
  FailedKillPod: 'kill',
  Evicted: 'eviction',
  OOMKilling: 'oom',
  SystemOOM: 'oom',
  Unhealthy: null,
  Created: null,
  Started: null,
};

/** Remembers which OOM-killed container ids have a row (bounded). */
export class OomSeen {
  private readonly seen = new Set<string>();
  first(id: string): boolean {
    if (this.seen.has(id)) return false;
    if (this.seen.size >= 10_000) this.seen.clear();
    this.seen.add(id);
    return true;
  }
}

/** Sync steps whose target is a container (the sandbox steps name the pod). */
const CONTAINER_ACTIONS = new Set(['StartContainer', 'KillContainer', 'InitContainer']);

function containerOf(fieldPath: string | undefined): string | undefined {
  return fieldPath ? /\{([^}]+)\}/.exec(fieldPath)?.[1] : undefined;
}

/** "back-off 40s restarting failed container=…" → 40000. */
export function backOffDelayMs(message: string | undefined): number | undefined {
  const m = /back-off (\S+) /.exec(message ?? '');
  const d = m?.[1] ? parseDuration(m[1]) : undefined;
  return d?.ok ? d.ms : undefined;
}

function fromK8sEvent(e: K8sBusEvent): RecorderEntryInput[] {
  const o = e.involvedObject;
  let kind = K8S_KIND[e.reason];
  if (kind === undefined) {
    if (e.reason === 'BackOff') kind = /pulling image/i.test(e.message) ? 'pull' : null;
    else if (e.reason === 'Failed') kind = /image/i.test(e.message) ? 'pull' : 'event';
    else kind = o.kind === 'Pod' ? 'event' : null;
  }
  if (!kind) return [];
  const container = containerOf(o.fieldPath);
  return [
    {
      time: e.time,
      kind,
      ...(o.kind === 'Pod' ? { podUID: o.uid, namespace: o.namespace, name: o.name } : {}),
      ...(container ? { container } : {}),
      reason: e.reason,
      message: e.message,
      details: { eventType: e.eventType, object: `${o.kind}/${o.name}`, ...(e.count > 1 ? { count: e.count } : {}) },
    },
  ];
}

function fromDecision(e: DecisionBusEvent): RecorderEntryInput[] {
  const pod = { podUID: e.pod.uid, namespace: e.pod.namespace, name: e.pod.name };
  if (e.decision !== 'sync') {
    return [{ time: e.time, kind: 'admission', ...pod, reason: e.decision === 'admit' ? 'Admitted' : (e.reason ?? 'Refused'), ...(e.message ? { message: e.message } : {}) }];
  }
  return (e.steps ?? []).map((s): RecorderEntryInput => {
    const backOff = s.error === 'CrashLoopBackOff';
    const delayMs = backOff ? backOffDelayMs(s.message) : undefined;
    return {
      time: e.time,
      kind: backOff ? 'backoff' : 'sync',
      ...pod,
      ...(CONTAINER_ACTIONS.has(s.action) ? { container: s.target } : {}),
      reason: s.error ?? s.action,
      ...(s.message ? { message: s.message } : {}),
      details: { action: s.action, ...(s.error ? { error: s.error } : {}), ...(delayMs !== undefined ? { delayMs } : {}) },
    };
  });
}

function fromStatus(e: PodStatusBusEvent, oom: OomSeen): RecorderEntryInput[] {
  const out: RecorderEntryInput[] = [];
  const statuses = [...(e.status.initContainerStatuses ?? []), ...(e.status.containerStatuses ?? [])];
  for (const cs of statuses) {
    for (const t of [cs.state?.terminated, cs.lastState?.terminated]) {
      if (t?.reason !== 'OOMKilled' || !oom.first(`${e.pod.uid}/${t.containerID ?? `${cs.name}#${cs.restartCount}`}`)) continue;
      const finished = t.finishedAt ? new Date(t.finishedAt as unknown as string).toISOString() : e.time;
      out.push({
        time: finished,
        kind: 'oom',
        podUID: e.pod.uid,
        namespace: e.pod.namespace,
        name: e.pod.name,
        container: cs.name,
        reason: 'OOMKilled',
        message: `container ${cs.name} was OOM-killed (exit code ${t.exitCode})`,
        details: { exitCode: t.exitCode, restartCount: cs.restartCount, ...(t.containerID ? { containerID: t.containerID } : {}) },
      });
    }
  }
  return out;
}

/** The rows one bus event gives (none for most); probe events are not handled here. */
export function entriesFromEvent(e: NodeletEvent, oom: OomSeen): RecorderEntryInput[] {
  switch (e.type) {
    case 'decision':
      return fromDecision(e);
    case 'k8sEvent':
      return fromK8sEvent(e);
    case 'podStatus':
      return fromStatus(e, oom);
    case 'pleg':
      if (e.pleg !== 'ContainerStarted' && e.pleg !== 'ContainerDied') return [];
      return [{ time: e.time, kind: 'container', podUID: e.pod.uid, namespace: e.pod.namespace, name: e.pod.name, ...(e.containerName ? { container: e.containerName } : {}), reason: e.pleg, details: { containerID: e.containerId } }];
    case 'podConfig':
      return [{ time: e.time, kind: 'config', podUID: e.pod.uid, namespace: e.pod.namespace, name: e.pod.name, reason: e.op, message: `${e.op} from source ${e.source}` }];
    case 'gc':
      if (e.removed.length === 0 && e.errors.length === 0) return [];
      return [
        {
          time: e.time,
          kind: 'gc',
          reason: e.kind === 'images' ? 'ImageGC' : 'ContainerGC',
          message: `${e.trigger} ${e.kind === 'images' ? 'image' : 'container'} GC removed ${e.removed.length}, freed ${e.freedBytes} bytes${e.errors.length ? `, ${e.errors.length} error(s)` : ''}`,
          details: { trigger: e.trigger, removed: e.removed, freedBytes: e.freedBytes, ...(e.errors.length ? { errors: e.errors } : {}) },
        },
      ];
    case 'pressure':
      return [
        {
          time: e.time,
          kind: 'eviction',
          reason: e.conditions.length ? e.conditions.join(',') : 'NoPressure',
          message: e.conditions.length ? `node pressure: ${e.conditions.join(', ')}` : 'node pressure cleared',
          details: { met: e.signals.filter((s) => s.met).map((s) => ({ signal: s.signal, available: s.available })) },
        },
      ];
    case 'probe':
    case 'runtime':
    case 'device': // an allocation failure is recorded as the admission refusal or the sync step it fails
    case 'shutdown': // its kills are recorded as the pod workers' decisions
      return [];
  }
}
